// expect: ok
// category: determinism
// value: true
// source: original
const s = "x".repeat(1 << 20);
return sha256(s) === sha256(s) && sha256(s).length === 64;

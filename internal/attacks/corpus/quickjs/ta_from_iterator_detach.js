// expect: ok
// category: quickjs
// value: "survived"
// source: original
const ab = new ArrayBuffer(64);
const src = { *[Symbol.iterator]() { yield 1; ab.transfer(); yield 2; } };
try { Uint8Array.from(src); new Uint8Array(ab); } catch (e) {}
return "survived";

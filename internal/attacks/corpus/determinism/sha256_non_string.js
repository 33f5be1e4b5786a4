// expect: ok
// category: determinism
// value: ["TypeError","TypeError","TypeError"]
// source: original (sha256 takes strings only)
return [1, undefined, { toString() { return "abc"; } }].map((v) => { try { sha256(v); return "hashed"; } catch (e) { return e.name; } });

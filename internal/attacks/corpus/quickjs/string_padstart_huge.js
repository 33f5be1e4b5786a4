// expect: ok
// category: quickjs
// value: "RangeError"
// source: original
try { "x".padStart(2 ** 30, "yz"); return "made"; } catch (e) { return e.name; }

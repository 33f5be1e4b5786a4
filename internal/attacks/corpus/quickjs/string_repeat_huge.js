// expect: ok
// category: quickjs
// value: "RangeError"
// source: QuickJS string length reports
try { "ab".repeat(2 ** 30); return "made"; } catch (e) { return e.name; }

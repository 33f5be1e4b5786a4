// expect: ok
// category: quickjs
// value: "RangeError"
// source: QuickJS apply argument count reports
try { Math.max.apply(null, { length: 2 ** 32 - 1 }); return "called"; } catch (e) { return e.name; }

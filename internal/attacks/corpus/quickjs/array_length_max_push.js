// expect: ok
// category: quickjs
// value: "RangeError"
// source: original (push at length 2^32-1)
const a = [];
a.length = 2 ** 32 - 1;
try { a.push(1); return "pushed"; } catch (e) { return e.name; }

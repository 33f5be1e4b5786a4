// expect: ok
// category: quickjs
// value: "survived"
// source: original (mutating a Map while iterating)
const m = new Map([[1, 1], [2, 2]]);
let n = 0;
for (const [k] of m) { m.delete(k); if (n++ < 1000) m.set(k + 2, 1); }
return "survived";

// expect: ok
// category: quickjs
// value: ["RangeError","RangeError"]
// source: original
const r = [];
for (const n of [-1, 2 ** 53]) { try { new ArrayBuffer(n); r.push("made"); } catch (e) { r.push(e.name); } }
return r;

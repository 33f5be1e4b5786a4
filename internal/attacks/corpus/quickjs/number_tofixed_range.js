// expect: ok
// category: quickjs
// value: ["RangeError","1.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"]
// source: original
const r = [];
try { (1).toFixed(101); r.push("formatted"); } catch (e) { r.push(e.name); }
r.push((1).toFixed(100));
return r;

// expect: ok
// category: quickjs
// value: ["RangeError","-3","-1"]
// source: original
const r = [];
try { 1n / 0n; r.push("divided"); } catch (e) { r.push(e.name); }
r.push(String(-7n / 2n), String(-7n % 2n));
return r;

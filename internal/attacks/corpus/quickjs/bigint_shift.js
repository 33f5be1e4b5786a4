// expect: ok
// category: quickjs
// value: ["RangeError","0"]
// source: QuickJS BigInt shift reports
const r = [];
try { r.push(String(1n << (2n ** 64n))); } catch (e) { r.push(e.name); }
r.push(String(1n >> (2n ** 64n)));
return r;

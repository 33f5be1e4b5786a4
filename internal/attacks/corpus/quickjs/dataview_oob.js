// expect: ok
// category: quickjs
// value: ["RangeError","RangeError"]
// source: CVE-2020-22874 class (DataView bounds)
const dv = new DataView(new ArrayBuffer(8));
const r = [];
for (const i of [8, 2 ** 32]) { try { dv.getFloat64(i); r.push("read"); } catch (e) { r.push(e.name); } }
return r;

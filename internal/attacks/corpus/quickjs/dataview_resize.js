// expect: ok
// category: quickjs
// value: "survived"
// source: original (DataView over a shrinking resizable buffer)
const ab = new ArrayBuffer(64, { maxByteLength: 64 });
const dv = new DataView(ab, 32);
ab.resize(16);
try { dv.getUint8(0); } catch (e) {}
return "survived";

// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2020-22875 class (copyWithin after a length change)
const ab = new ArrayBuffer(1024, { maxByteLength: 1024 });
const ta = new Uint8Array(ab);
try { ta.copyWithin(0, { valueOf() { ab.resize(8); return 512; } }); } catch (e) {}
return "survived";

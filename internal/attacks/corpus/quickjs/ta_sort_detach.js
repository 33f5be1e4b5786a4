// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2020-22876 class (QuickJS typed array sort with a detaching comparator)
const ta = new Uint8Array(new ArrayBuffer(1024));
ta.fill(7);
try { ta.sort(() => { ta.buffer.transfer(); return 0; }); } catch (e) { /* TypeError is fine */ }
return "survived";

// expect: ok
// category: quickjs
// value: "survived"
// source: QuickJS-NG#461 class (resizable ArrayBuffer shrunk in valueOf)
const ab = new ArrayBuffer(4096, { maxByteLength: 8192 });
const ta = new Uint32Array(ab);
try { ta.fill({ valueOf() { ab.resize(0); return 1; } }); } catch (e) {}
return "survived";

// expect: ok
// category: quickjs
// value: "survived"
// source: original (SharedArrayBuffer without threads or Atomics)
const sab = new SharedArrayBuffer(1024);
const ta = new Int32Array(sab);
ta[0] = 1;
if (typeof Atomics !== "undefined") { try { Atomics.wait(ta, 0, 1, 10); } catch (e) {} }
return "survived";

// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2020-22876 (QuickJS Atomics on detached buffers)
if (typeof Atomics !== "undefined") {
  const ta = new Int32Array(16);
  try { Atomics.add(ta, { valueOf() { ta.buffer.transfer(); return 0; } }, 1); } catch (e) {}
}
return "survived";

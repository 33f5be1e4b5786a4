// expect: ok
// category: quickjs
// value: "survived"
// source: original
const ta = new Float64Array(64);
try { ta.subarray({ valueOf() { ta.buffer.transfer(); return 0; } }, 32).fill(1); } catch (e) {}
return "survived";

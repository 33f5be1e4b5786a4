// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: vm2 memory-limit bypass reports (catching out-of-memory)
const keep = [];
for (;;) { try { keep.push(new Array(1 << 16).fill(keep.length)); } catch (e) { keep.length = 0; } }

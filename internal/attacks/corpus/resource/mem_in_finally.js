// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (allocation inside finally after an out-of-memory)
const keep = [];
try { for (;;) keep.push("y".repeat(1 << 16) + keep.length); } finally { for (;;) keep.push({}); }

// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (many distinct strings)
const keep = [];
for (let i = 0; ; i++) keep.push("x".repeat(1000) + i);

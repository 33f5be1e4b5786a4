// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (BigInt digits)
const keep = [];
for (let x = 2n ** 100000n; ; ) keep.push(x++);

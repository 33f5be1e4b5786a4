// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (growing a resizable buffer)
const ab = new ArrayBuffer(0, { maxByteLength: 2 ** 30 });
for (let n = 1 << 20; ; n *= 2) ab.resize(n);

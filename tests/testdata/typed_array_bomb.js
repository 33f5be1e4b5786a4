// expect: ResourceError/memory
// timeout: 10s
const keep = [];
for (let i = 0; ; i++) keep.push(new Float64Array(1 << 20));

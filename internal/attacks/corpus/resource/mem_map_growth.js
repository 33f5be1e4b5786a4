// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original
const m = new Map();
for (let i = 0; ; i++) m.set(i, [i]);

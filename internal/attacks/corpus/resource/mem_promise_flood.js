// expect: ResourceError/memory
// category: resource
// timeout: 3s
// source: original (a chain of pending promises kept alive)
const keep = [];
for (;;) keep.push(new Promise(() => {}));

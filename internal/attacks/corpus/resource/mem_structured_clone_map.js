// expect: ResourceError/memory
// category: resource
// memory: 4MiB
// timeout: 20s
// source: original (cloning a large Map until memory runs out)
const m = new Map();
for (let i = 0; i < 5000; i++) m.set(i, { i, s: "v" + i });
const kept = [];
for (;;) kept.push(structuredClone(m));

// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (JSON.parse of a large text, repeatedly kept)
const t = JSON.stringify(Array.from({ length: 10000 }, (_, i) => ({ i })));
const keep = [];
for (;;) keep.push(JSON.parse(t));

// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: tests/testdata/array_growth.js (Warden's own)
const a = [];
for (;;) a.push({ n: a.length, s: "item" + a.length });

// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: tests/testdata/typed_array_bomb.js (Warden's own)
const keep = [];
for (;;) keep.push(new Float64Array(1 << 20));

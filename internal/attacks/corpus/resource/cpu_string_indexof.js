// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (quadratic substring search)
const s = "a".repeat(1 << 20);
const n = "a".repeat(1 << 19) + "b";
for (;;) s.indexOf(n);

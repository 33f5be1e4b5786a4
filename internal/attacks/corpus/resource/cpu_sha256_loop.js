// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (a host function in a tight loop)
const s = "x".repeat(1 << 16);
for (;;) sha256(s);

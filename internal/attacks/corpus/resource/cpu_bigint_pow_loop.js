// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (BigInt arithmetic in a C loop)
let x = 3n;
for (;;) x = (x * x) % (2n ** 100000n - 1n);

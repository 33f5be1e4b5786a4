// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original
const a = new Array(1e6).fill(1);
for (;;) a.includes(2);

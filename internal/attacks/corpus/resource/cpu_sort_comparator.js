// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original
const a = Array.from({ length: 1e5 }, (_, i) => i);
for (;;) a.sort((x, y) => y - x);

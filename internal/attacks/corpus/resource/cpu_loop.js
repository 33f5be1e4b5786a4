// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original
for (;;) {}

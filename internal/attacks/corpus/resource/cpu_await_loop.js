// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (an await in an endless loop)
for (;;) await null;

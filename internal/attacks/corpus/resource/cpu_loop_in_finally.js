// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (the interrupt raised inside finally)
try { for (;;) {} } finally { for (;;) {} }

// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (entropy in a loop: each call is bounded, the deadline still ends it)
const a = new Uint8Array(65536);
for (;;) crypto.getRandomValues(a);

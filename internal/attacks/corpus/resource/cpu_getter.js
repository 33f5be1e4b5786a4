// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: tests/testdata/loop_in_getter.js (Warden's own)
const o = { get x() { for (;;) {} } };
return o.x;

// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: tests/testdata/loop_in_tojson.js (Warden's own)
return { toJSON() { for (;;) {} } };

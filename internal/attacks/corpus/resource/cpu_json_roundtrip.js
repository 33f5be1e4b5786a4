// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original
const o = Array.from({ length: 10000 }, (_, i) => ({ i, s: "x" + i }));
for (;;) JSON.parse(JSON.stringify(o));

// expect: TimeoutError
// category: quickjs
// timeout: 300ms
// The spec walks all 2^32-1 indices: only the deadline ends it.
// source: original (a sparse array of length 2^32-1 through splice)
const a = [];
a.length = 2 ** 32 - 1;
a.splice(0, 2);
return a.length;

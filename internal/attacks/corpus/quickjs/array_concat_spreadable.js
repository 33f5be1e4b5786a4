// expect: TimeoutError
// category: quickjs
// timeout: 300ms
// The spec walks all 2^53-1 indices: only the deadline ends it.
// source: V8 CVE-2016-1646 class (isConcatSpreadable with a huge length)
const o = { length: 2 ** 53 - 1, [Symbol.isConcatSpreadable]: true };
return [].concat(o).length;

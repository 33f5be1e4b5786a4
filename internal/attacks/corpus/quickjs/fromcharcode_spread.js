// expect: ResourceError/memory
// category: quickjs
// A million arguments need more than the 16 MiB heap.
// source: original (a million arguments through spread)
const codes = new Array(1e6).fill(65);
return String.fromCharCode(...codes).length;

// expect: ok
// category: leak
// value: [true,"undefined","undefined"]
// source: Spectre timer mitigations (no clock finer than a millisecond)
const t = Date.now();
return [Number.isInteger(t) && Number.isInteger(new Date().getTime()), typeof performance, typeof process];

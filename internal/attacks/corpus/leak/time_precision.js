// expect: ok
// category: leak
// value: [true,"object",true,"undefined"]
// source: Spectre timer mitigations (no clock finer than a millisecond)
const t = Date.now();
return [Number.isInteger(t) && Number.isInteger(new Date().getTime()), typeof performance,
  Number.isInteger(performance.now()) && Number.isInteger(performance.timeOrigin), typeof process];

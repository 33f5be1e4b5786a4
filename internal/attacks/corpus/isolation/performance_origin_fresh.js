// expect: ok
// category: isolation
// value: [true,true]
// source: original (the clock's origin is the execution's, not the heap snapshot's)
const origin = performance.timeOrigin;
return [Math.abs(origin - Date.now()) < 1000, performance.now() < 1000];

// expect: ok
// value: ["fired", "fired", "fired"]
// category: resource
// timeout: 2s
// source: original (a delay of 2^31 ms does not fit Node's 32-bit timer: it becomes 1 ms, as Node clamps it, and never overflows a Go duration or wraps negative)
const wait = (ms) => new Promise((r) => setTimeout(() => r("fired"), ms));
return await Promise.all([wait(2 ** 31), wait(Number.MAX_VALUE), wait(-(2 ** 53))]);

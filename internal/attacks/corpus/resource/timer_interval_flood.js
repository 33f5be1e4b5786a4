// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (setInterval(f, 0) forever: a callback every millisecond until the deadline; the engine waits between them)
let n = 0;
setInterval(() => { n++; }, 0);
setInterval(() => { n++; }, 0);
await new Promise(() => {});

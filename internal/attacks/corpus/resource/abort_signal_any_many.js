// expect: ok
// category: resource
// value: [true,"r",1,true]
// memory: 128MiB
// timeout: 30s
// source: original (AbortSignal.any over 100,000 signals, and over one signal 100,000 times)
const cs = [];
for (let i = 0; i < 100000; i++) cs.push(new AbortController());
const s = AbortSignal.any(cs.map((c) => c.signal));
cs[99999].abort("r");
const c = new AbortController();
const t = AbortSignal.any(new Array(100000).fill(c.signal));
let fired = 0;
t.onabort = () => fired++;
c.abort();
return [s.aborted, s.reason, fired, t.reason instanceof DOMException];

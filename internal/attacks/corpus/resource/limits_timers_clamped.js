// expect: ok
// category: resource
// value: 3
// limits: {"timers": 1000000}
// clamped: timers
// source: original
let n = 0;
await new Promise((r) => { for (let i = 0; i < 3; i++) setTimeout(() => { if (++n === 3) r(); }, 1); });
return n;

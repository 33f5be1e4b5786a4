// Time sections of work with performance.now, returning only what is
// deterministic: that the clock is monotonic and the sections ordered.
const t0 = performance.now();
let acc = 0;
for (let i = 0; i < 20000; i++) acc += Math.sqrt(i);
const t1 = performance.now();
// A timer counts from the event loop's cached time, not from t1: one
// turn of the loop first, and a margin, keep the check deterministic.
await new Promise((r) => setTimeout(r, 0));
const before = performance.now();
await new Promise((r) => setTimeout(r, 15));
const t2 = performance.now();
const marks = Array.from({ length: 100 }, () => performance.now());
return {
  types: [typeof t0, typeof performance.timeOrigin],
  monotonic: marks.every((m, i) => i === 0 || m >= marks[i - 1]),
  ordered: t0 <= t1 && t1 <= t2,
  sleptAtLeast: t2 - before >= 10,
  nonNegative: t0 >= 0,
  acc: Math.round(acc),
  originIsPast: performance.timeOrigin > 1.6e12,
};

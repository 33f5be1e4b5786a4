// expect: ok
// category: leak
// value: true
// source: Spectre timer mitigations (performance.now() counts whole milliseconds, never backwards)
const seen = new Set();
let last = performance.now();
const end = Date.now() + 20;
while (Date.now() < end) {
  const t = performance.now();
  if (t < last) return "went backwards";
  last = t;
  seen.add(t % 1);
}
return seen.size === 1 && seen.has(0);

// Descriptive statistics of a sample: mean, median, mode, variance,
// standard deviation, quartiles, outliers by IQR, z-scores.
const xs = [...input].sort((a, b) => a - b);
const n = xs.length;
const mean = xs.reduce((a, b) => a + b, 0) / n;
const q = (p) => { const pos = (n - 1) * p, lo = Math.floor(pos), hi = Math.ceil(pos); return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo); };
const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1);
const sd = Math.sqrt(variance);
const counts = {};
for (const x of xs) counts[x] = (counts[x] || 0) + 1;
const maxCount = Math.max(...Object.values(counts));
const [q1, q3] = [q(0.25), q(0.75)];
const iqr = q3 - q1;
const r = (x) => Math.round(x * 1e6) / 1e6;
return {
  n, mean: r(mean), median: q(0.5), q1, q3, min: xs[0], max: xs[n - 1],
  mode: Object.keys(counts).filter((k) => counts[k] === maxCount).map(Number),
  variance: r(variance), sd: r(sd),
  outliers: xs.filter((x) => x < q1 - 1.5 * iqr || x > q3 + 1.5 * iqr),
  z: xs.slice(0, 3).map((x) => r((x - mean) / sd)),
};

// Latency percentiles (nearest-rank) and an SLO check, per endpoint.
const pct = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
const by = {};
for (const { endpoint, ms } of input.samples) (by[endpoint] ||= []).push(ms);
return Object.entries(by).map(([endpoint, list]) => {
  const s = list.sort((a, b) => a - b);
  const p95 = pct(s, 95);
  return { endpoint, count: s.length, p50: pct(s, 50), p90: pct(s, 90), p95, p99: pct(s, 99), max: s.at(-1), slo: p95 <= input.sloMs ? "met" : "breached" };
});

// A typical "analyse this CSV" tool call: parse, aggregate by two keys,
// rank, and answer questions about the data.
const [head, ...lines] = input.trim().split("\n");
const cols = head.split(",");
const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], isNaN(v) ? v : +v])));
const revenue = (r) => r.units * r.unit_price;
const byRegion = {};
for (const r of rows) {
  const g = (byRegion[r.region] ??= { revenue: 0, units: 0, products: {} });
  g.revenue += revenue(r);
  g.units += r.units;
  g.products[r.product] = (g.products[r.product] ?? 0) + revenue(r);
}
const summary = Object.entries(byRegion).map(([region, g]) => ({
  region,
  revenue: Math.round(g.revenue * 100) / 100,
  units: g.units,
  topProduct: Object.entries(g.products).sort((a, b) => b[1] - a[1])[0][0],
})).sort((a, b) => b.revenue - a.revenue);
const best = rows.reduce((a, b) => (revenue(b) > revenue(a) ? b : a));
return { summary, bestSale: best, total: summary.reduce((s, r) => s + r.revenue, 0).toFixed(2), months: [...new Set(rows.map((r) => r.month))].length };

// Split an amount in integer cents across ratios without losing a cent
// (largest remainder), and compute tax per line.
function allocate(totalCents, ratios) {
  const sum = ratios.reduce((a, b) => a + b, 0);
  const raw = ratios.map((r) => (totalCents * r) / sum);
  const base = raw.map(Math.floor);
  let left = totalCents - base.reduce((a, b) => a + b, 0);
  const order = raw.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) { if (left-- <= 0) break; base[i]++; }
  return base;
}
const fmt = (c) => `${c < 0 ? "-" : ""}$${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, "0")}`;
const lines = input.lines.map((l) => {
  const net = l.qty * l.unitCents;
  const tax = Math.round((net * l.taxBps) / 10000);
  return { ...l, net: fmt(net), tax: fmt(tax), gross: net + tax };
});
return {
  split3: allocate(10000, [1, 1, 1]).map(fmt),
  split: allocate(input.totalCents, input.ratios),
  lines,
  total: fmt(lines.reduce((s, l) => s + l.gross, 0)),
};

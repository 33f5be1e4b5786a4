// Group a list of orders by customer and total each group, as a workflow
// node summarising an export would.
const byCustomer = {};
for (const order of input.orders) {
  const key = order.customer.trim().toLowerCase();
  if (!byCustomer[key]) byCustomer[key] = { customer: key, orders: 0, totalCents: 0, skus: [] };
  const g = byCustomer[key];
  g.orders += 1;
  g.totalCents += order.items.reduce((sum, it) => sum + it.qty * it.priceCents, 0);
  for (const it of order.items) if (!g.skus.includes(it.sku)) g.skus.push(it.sku);
}
return Object.values(byCustomer)
  .map((g) => ({ ...g, total: (g.totalCents / 100).toFixed(2), skus: g.skus.sort() }))
  .sort((a, b) => b.totalCents - a.totalCents || a.customer.localeCompare(b.customer));

// Apply a batch of stock updates to an inventory: relative deltas, absolute
// sets, deletions; report what changed and anything that went negative.
const inv = Object.fromEntries(input.inventory.map((i) => [i.sku, { ...i }]));
const changes = [];
const problems = [];
for (const u of input.updates) {
  const item = inv[u.sku];
  if (u.op === "delete") {
    if (item) { delete inv[u.sku]; changes.push(`-${u.sku}`); }
    continue;
  }
  if (!item) {
    inv[u.sku] = { sku: u.sku, qty: u.op === "set" ? u.value : Math.max(0, u.value), name: u.name ?? "unknown" };
    changes.push(`+${u.sku}`);
    continue;
  }
  const before = item.qty;
  item.qty = u.op === "set" ? u.value : item.qty + u.value;
  if (item.qty < 0) { problems.push({ sku: u.sku, qty: item.qty }); item.qty = 0; }
  changes.push(`${u.sku}:${before}->${item.qty}`);
}
return { inventory: Object.values(inv).sort((a, b) => a.sku.localeCompare(b.sku)), changes, problems };

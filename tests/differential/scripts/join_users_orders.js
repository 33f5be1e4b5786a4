// Left-join users to their orders and compute per-user stats.
const { users, orders } = input;
const grouped = {};
for (const o of orders) (grouped[o.userId] ||= []).push(o);
return users.map((u) => {
  const mine = grouped[u.id] ?? [];
  const amounts = mine.map((o) => o.amount);
  return {
    user: u.name,
    orders: mine.length,
    spent: amounts.reduce((a, b) => a + b, 0),
    biggest: amounts.length ? Math.max(...amounts) : null,
    lastOrder: mine.map((o) => o.date).sort().at(-1) ?? null,
  };
});

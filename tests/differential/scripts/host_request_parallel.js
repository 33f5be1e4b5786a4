// Fetch a user, then their orders and profile in parallel through host
// data requests, and assemble a dashboard.
const user = await host.request("user", { id: input.userId });
const [orders, profile] = await Promise.all([
  host.request("orders", { userId: user.id }),
  host.request("profile", { userId: user.id }),
]);
const open = orders.filter((o) => o.status !== "delivered");
return {
  greeting: `Hello, ${profile.displayName ?? user.name}!`,
  openOrders: open.map((o) => o.id),
  spent: orders.reduce((s, o) => s + o.totalCents, 0) / 100,
  theme: profile.prefs?.theme ?? "light",
};

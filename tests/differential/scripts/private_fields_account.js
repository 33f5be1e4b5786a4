// A bank account with private fields and methods, a static counter,
// and `#x in obj` brand checks.
class Account {
  static #count = 0;
  #balance = 0;
  #history = [];
  constructor(owner) { this.owner = owner; this.id = ++Account.#count; }
  #record(type, amount) { this.#history.push(`${type}:${amount}`); }
  deposit(amount) {
    if (!(amount > 0)) throw new RangeError(`invalid amount ${amount}`);
    this.#balance += amount; this.#record("dep", amount); return this;
  }
  withdraw(amount) {
    if (amount > this.#balance) throw new Error(`insufficient funds: ${this.#balance} < ${amount}`);
    this.#balance -= amount; this.#record("wd", amount); return this;
  }
  get balance() { return this.#balance; }
  get history() { return [...this.#history]; }
  static isAccount(o) { return #balance in o; }
  static get count() { return Account.#count; }
}
const a = new Account("ann").deposit(100).withdraw(30);
const b = new Account("bob");
const errors = [];
for (const f of [() => b.withdraw(1), () => a.deposit(-5), () => a.deposit(NaN)]) {
  try { f(); } catch (e) { errors.push(`${e.name}: ${e.message}`); }
}
let brand;
try { Object.getOwnPropertyDescriptor(Account.prototype, "balance").get.call({}); } catch (e) { brand = e.name; }
return { balance: a.balance, history: a.history, ids: [a.id, b.id], count: Account.count, errors, isAccount: [Account.isAccount(a), Account.isAccount({})], brand, keys: Object.keys(a), json: JSON.stringify(a) };

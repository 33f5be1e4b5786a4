// Getters and setters that validate and derive, plus Object.defineProperty
// accessors and frozen configuration objects.
class Temperature {
  #c = 0;
  constructor(c) { this.celsius = c; }
  get celsius() { return this.#c; }
  set celsius(v) {
    if (typeof v !== "number" || Number.isNaN(v)) throw new TypeError("celsius must be a number");
    if (v < -273.15) throw new RangeError("below absolute zero");
    this.#c = v;
  }
  get fahrenheit() { return +(this.#c * 9 / 5 + 32).toFixed(2); }
  set fahrenheit(f) { this.celsius = ((f - 32) * 5) / 9; }
  toJSON() { return { c: this.#c, f: this.fahrenheit }; }
}
const t = new Temperature(21.5);
t.fahrenheit = 212;
const errs = [];
for (const v of ["hot", -300, NaN]) { try { t.celsius = v; } catch (e) { errs.push(e.name + ":" + e.message); } }
const cfg = Object.freeze({ retries: 3, nested: { mutable: true } });
let frozenWrite;
try { (function () { "use strict"; cfg.retries = 5; })(); } catch (e) { frozenWrite = e.name; }
cfg.nested.mutable = "yes";
const obj = {};
let reads = 0;
Object.defineProperty(obj, "lazy", { get() { reads++; Object.defineProperty(this, "lazy", { value: 42, enumerable: true }); return 42; }, configurable: true });
const lazy = [obj.lazy, obj.lazy, reads];
return { t, errs, cfg, frozenWrite, isFrozen: [Object.isFrozen(cfg), Object.isFrozen(cfg.nested)], lazy, descriptor: Object.getOwnPropertyDescriptor(Temperature.prototype, "fahrenheit").set !== undefined };

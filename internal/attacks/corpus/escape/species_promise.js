// expect: ok
// category: escape
// value: 7
// source: vm2 GHSA-g644-9gfx-q4q4 (Symbol.species on the result promise)
class Evil extends Promise {
  static get [Symbol.species]() { throw new Error("species ran"); }
}
Object.defineProperty(Promise, Symbol.species, { get() { throw new Error("species ran"); } });
Promise.prototype.constructor = Evil;
return 7;

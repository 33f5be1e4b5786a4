// What structuredClone refuses (functions, symbols, DOM-less platform
// objects) and what it does with Error objects.
const tries = { fn: () => structuredClone({ f() {} }), sym: () => structuredClone(Symbol("s")), weak: () => structuredClone(new WeakMap()), promise: () => structuredClone(Promise.resolve()) };
const refused = Object.fromEntries(Object.entries(tries).map(([k, f]) => { try { f(); return [k, "cloned"]; } catch (e) { return [k, [e.name, e instanceof DOMException, e.code]]; } }));
const err = new RangeError("out of range", { cause: "x" });
err.extra = 1;
const ce = structuredClone(err);
const custom = structuredClone(new (class MyErr extends TypeError {})("mine"));
return {
  refused,
  error: [ce instanceof RangeError, ce.name, ce.message, ce.extra, typeof ce.stack],
  custom: [custom.constructor.name, custom.message],
  noArg: (() => { try { structuredClone(); return "no error"; } catch (e) { return e.name; } })(),
  prims: [structuredClone(1), structuredClone("s"), structuredClone(null), structuredClone(undefined) === undefined],
};

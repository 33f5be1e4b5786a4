// The kinds of the engine's own errors (their names and classes, not the
// wording), which code branches on.
const tries = [
  () => null.foo, () => undefined(), () => new Array(-1), () => JSON.parse("{bad"), () => 1n + 1,
  () => notDeclared, () => decodeURIComponent("%"), () => "x".repeat(-1), () => new (class { #p; static g(o) { return o.#p; } }).g({}),
  () => Symbol() + "", () => Object.defineProperty(Object.freeze({}), "x", { value: 1 }), () => eval("let let = 1"), () => structuredCloneMissing(),
];
return tries.map((f) => { try { f(); return "no error"; } catch (e) { return [e.name, e.constructor.name, e instanceof Error, typeof e.message]; } });

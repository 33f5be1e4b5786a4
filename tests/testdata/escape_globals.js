// expect: ok
// value: {"found":[],"viaConstructor":"undefined"}
// Every ambient capability a Node or browser sandbox might leak.
const probes = ["process", "require", "module", "fetch", "XMLHttpRequest", "WebAssembly", "std", "os", "bjson",
  "setImmediate", "Deno", "Bun", "navigator", "InternalError", "print", "scriptArgs"]; // timers and performance are web globals now
const found = probes.filter((p) => typeof globalThis[p] !== "undefined");
const viaConstructor = (() => { try { return typeof Function("return this")().process; } catch (e) { return "threw"; } })();
return { found, viaConstructor };

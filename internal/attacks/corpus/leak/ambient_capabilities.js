// expect: ok
// category: leak
// value: {"found":[],"viaConstructor":"undefined"}
// source: tests/testdata/escape_globals.js (Warden's own)
const probes = ["process", "require", "module", "fetch", "XMLHttpRequest", "WebAssembly", "std", "os", "bjson",
  "setTimeout", "setInterval", "Deno", "Bun", "navigator", "InternalError", "print", "scriptArgs"];
const found = probes.filter((p) => typeof globalThis[p] !== "undefined");
const viaConstructor = (() => { try { return typeof Function("return this")().process; } catch (e) { return "threw"; } })();
return { found, viaConstructor };

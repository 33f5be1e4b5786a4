// expect: ok
// category: escape
// value: []
// source: node:vm (Function("return this")() reaching the real global)
const g = Function("return this")();
const names = ["process", "require", "Buffer", "global", "std", "os", "WebAssembly", "fetch"];
return names.filter((n) => n in g);

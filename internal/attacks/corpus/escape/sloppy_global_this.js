// expect: ok
// category: escape
// value: []
// source: node:vm (Function("return this")() reaching the real global)
const g = Function("return this")();
const names = ["process", "require", "global", "std", "os", "WebAssembly", "fetch", "setImmediate"]; // Buffer is a web global now
return names.filter((n) => n in g);

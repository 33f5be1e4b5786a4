// expect: ok
// category: escape
// value: ["undefined","undefined","undefined"]
// source: vm2#199 (Error constructor chain)
const F = new Error("x").constructor.constructor;
return ["process", "require", "module"].map((n) => F("return typeof " + n)());

// expect: ok
// category: escape
// value: "undefined"
// source: vm2 GHSA-whpj-8f3w-67p5 (GeneratorFunction)
const G = function* () {}.constructor;
return G("yield typeof process")().next().value;

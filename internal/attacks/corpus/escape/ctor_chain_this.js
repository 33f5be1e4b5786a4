// expect: ok
// category: escape
// value: "undefined"
// source: vm2 GHSA-cchq-frgv-rjh5 (this.constructor.constructor)
// The classic vm escape: walk from any object to Function and compile
// "return process". In Warden that Function is the sandbox's own.
return typeof this.constructor.constructor("return typeof process")() === "string"
  ? this.constructor.constructor("return typeof process")() : "broken";

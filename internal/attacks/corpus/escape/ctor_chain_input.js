// expect: ok
// category: escape
// value: ["undefined", true]
// input: {"a":{"b":[1]}}
// source: original (the input is parsed inside the sandbox, not a host object)
const F = input.a.b.constructor.constructor;
return [F("return typeof process")(), Object.getPrototypeOf(input) === Object.prototype];

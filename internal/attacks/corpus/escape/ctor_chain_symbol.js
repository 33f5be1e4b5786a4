// expect: ok
// category: escape
// value: "undefined"
// source: original
return Symbol.iterator.constructor.constructor("return typeof process")();

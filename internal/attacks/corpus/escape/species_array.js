// expect: ok
// category: escape
// value: []
// source: CVE-2017-5030 class (Symbol.species on Array: map builds a plain object, so the copy is empty)
class A extends Array { static get [Symbol.species]() { return function () { return { length: 0 }; }; } }
const a = A.from([1, 2]);
return Array.from(a.map((x) => x * 2));

// expect: ok
// category: quickjs
// value: "survived"
// source: original (Symbol.split with a hostile species)
class R extends RegExp { static get [Symbol.species]() { return function () { return /x/y; }; } }
try { "a,b,c".split(new R(",")); } catch (e) {}
return "survived";

// expect: ok
// category: quickjs
// value: "survived"
// source: original (a user exec returning a malformed match)
const re = /x/g;
re.exec = function () { if (this.done) return null; this.done = true; return { index: 1e9, length: 3, 0: "x" }; };
try { "xxx".replace(re, "$1$2$<a>"); } catch (e) {}
return "survived";

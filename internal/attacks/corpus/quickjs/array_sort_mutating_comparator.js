// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2020-22877 class (Array.prototype.sort fast path with a mutating comparator)
const a = Array.from({ length: 200 }, (_, i) => i);
try { a.sort((x, y) => { a.length = 1; a[500] = 1; return y - x; }); } catch (e) {}
return "survived";

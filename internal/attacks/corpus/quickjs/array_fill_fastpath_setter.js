// expect: ok
// category: quickjs
// value: [1,1,1]
// source: original (an index setter on Array.prototype against fast arrays)
let hits = 0;
Object.defineProperty(Array.prototype, 5, { set() { hits++; }, configurable: true });
const a = [0, 0, 0];
a.fill(1);
return a;

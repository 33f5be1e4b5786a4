// expect: ok
// category: quickjs
// value: 1000
// source: original
const a = [1];
let n = 0;
for (const x of a) { if (++n < 1000) a.push(x); }
return n;

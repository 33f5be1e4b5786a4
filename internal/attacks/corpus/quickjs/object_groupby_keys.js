// expect: ok
// category: quickjs
// value: 1000
// source: original
return Object.keys(Object.groupBy(Array.from({ length: 1000 }, (_, i) => i), (i) => "k" + i)).length;

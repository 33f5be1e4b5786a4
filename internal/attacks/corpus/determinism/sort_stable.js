// expect: ok
// category: determinism
// value: ["a1","a2","a3","b1","b2"]
// source: ECMAScript 2019 stable sort
const xs = ["b1", "a1", "b2", "a2", "a3"];
return xs.sort((x, y) => x[0].localeCompare(y[0]));

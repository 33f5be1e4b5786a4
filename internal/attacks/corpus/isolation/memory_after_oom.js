// expect: ok
// category: isolation
// value: 1000000
// timeout: 5s
// source: original (a fresh heap after a neighbour's big allocation)
const keep = [];
for (let i = 0; i < 100; i++) keep.push("z".repeat(100000) + i);
return keep.length;
//== next
return "q".repeat(1e6).length;

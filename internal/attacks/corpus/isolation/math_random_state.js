// expect: ok
// category: isolation
// value: false
// source: docs/quickjs-wasm.md fact 6 (snapshots share Math.random state)
return Array.from({ length: 8 }, () => Math.random());
//== next
const mine = Array.from({ length: 8 }, () => Math.random());
return mine.every((x, i) => x === input[i]);

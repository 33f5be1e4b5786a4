// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: docs/quickjs-wasm.md fact 2 (a slow C builtin the interrupt cannot stop)
const a = new Array(1e6).fill(0);
for (let i = 0; i < 1e6; i++) a.indexOf(1);

// expect: TimeoutError
// The interrupt handler cannot stop a slow C builtin (docs/quickjs-wasm.md
// fact 2): only a layer above the interpreter can.
const a = new Array(1e6).fill(0);
for (let i = 0; i < 1e6; i++) a.indexOf(1);
return 1;

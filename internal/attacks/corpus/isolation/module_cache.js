// expect: ok
// category: isolation
// value: 1
// source: node:vm SourceTextModule cache reports (module state shared between runs)
const m = await import("counter");
m.bump(); m.bump();
return m.count();
//== module counter
let n = 0;
export const bump = () => ++n;
export const count = () => n;
//== next
const m = await import("counter");
return m.bump();
//== module counter
let n = 0;
export const bump = () => ++n;
export const count = () => n;

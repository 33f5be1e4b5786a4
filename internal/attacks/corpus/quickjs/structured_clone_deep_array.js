// expect: ok
// category: quickjs
// value: [10000,true]
// timeout: 20s
// source: original (structuredClone walks with its own stack, not the engine's)
let a = [];
for (let i = 0; i < 10000; i++) a = [a];
let c = structuredClone(a), depth = 0;
while (c.length) { c = c[0]; depth++; }
const o = { n: 0 };
o.self = o;
const oc = structuredClone(o);
return [depth, oc.self === oc];

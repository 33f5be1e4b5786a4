// expect: ok
// category: quickjs
// value: "survived"
// known: QuickJS-NG leaves a queued async-generator request pending after return() runs an awaiting finally (node prints "survived"); an engine conformance bug, no breach
// source: QuickJS-NG async generator state reports
async function* g() { try { yield 1; await new Promise((r) => r()); yield 2; } finally { await null; } }
const it = g();
await it.next();
await Promise.all([it.return(5), it.next(), it.throw(new Error("x")).catch(() => {})]);
return "survived";

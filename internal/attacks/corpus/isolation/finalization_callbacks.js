// expect: ok
// category: isolation
// value: "quiet"
// source: original
const reg = new FinalizationRegistry(() => { globalThis.fin = true; });
for (let i = 0; i < 100; i++) reg.register({}, i);
return 1;
//== next
return typeof fin === "undefined" ? "quiet" : "ran";

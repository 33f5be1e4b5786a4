// expect: ok
// category: quickjs
// value: "survived"
// source: QuickJS-NG FinalizationRegistry reports
const reg = new FinalizationRegistry(() => { for (;;) {} });
for (let i = 0; i < 1000; i++) reg.register({}, i);
const w = new WeakRef({});
void w.deref();
return "survived";

// expect: ok
// category: isolation
// value: "quiet"
// source: original (jobs queued by a previous run never run in the next)
for (let i = 0; i < 100; i++) Promise.resolve().then(() => { globalThis.late = true; });
return 1;
//== next
await null;
return globalThis.late ? "ran" : "quiet";

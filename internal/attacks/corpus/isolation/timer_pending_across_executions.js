// expect: ok
// value: "clean"
// category: isolation
// source: original (timers still pending when an execution's result settles are dropped with it: none runs in the next execution on the same supervisor)
setInterval(() => { globalThis.leaked = (globalThis.leaked || 0) + 1; }, 1);
setTimeout(() => { globalThis.leaked = "timeout"; }, 20);
return 1;
//== next
await new Promise((r) => setTimeout(r, 60));
return globalThis.leaked === undefined ? "clean" : "leaked: " + globalThis.leaked;

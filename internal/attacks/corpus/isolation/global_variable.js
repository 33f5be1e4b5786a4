// expect: ok
// category: isolation
// value: "undefined"
// source: node:vm context reuse reports (state left by a previous run)
globalThis.leak = "secret";
var leakVar = "secret";
return 1;
//== next
return typeof leak + (typeof leakVar === "undefined" ? "" : "!");

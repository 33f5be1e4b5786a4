// expect: ok
// category: escape
// value: "undefined"
// source: vm2 CVE-2023-29017 (host promise prototype reached from the sandbox)
const p = host.request("echo", 1);
const r = p.constructor.constructor("return typeof process")();
await p;
return r;

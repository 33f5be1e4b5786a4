// expect: ok
// category: escape
// value: []
// source: tests/testdata/builtin_reflection.js (Warden's own)
const bad = [];
for (const [n, f] of Object.entries({ sha256, log: console.log, request: host.request })) {
  if ("prototype" in f) bad.push(n + " prototype");
  if (!Function.prototype.toString.call(f).includes("[native code]")) bad.push(n + " source");
  if (Reflect.ownKeys(f).join() !== "length,name") bad.push(n + " keys");
}
return bad;

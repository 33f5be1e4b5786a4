// expect: ok
// category: escape
// value: ["TypeError","TypeError","TypeError"]
// source: original (curated builtins are not constructors)
const r = [];
for (const f of [sha256, console.log, host.request]) {
  try { Reflect.construct(function () {}, [], f); Reflect.construct(f, []); r.push("constructed"); } catch (e) { r.push(e.name); }
}
return r;

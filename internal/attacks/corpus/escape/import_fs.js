// expect: ok
// category: escape
// value: ["rejected","rejected","rejected","rejected"]
// source: node:vm importModuleDynamically escapes
const r = [];
for (const m of ["fs", "node:child_process", "/etc/passwd", "../../../../etc/passwd"]) {
  try { await import(m); r.push("imported " + m); } catch (e) { r.push("rejected"); }
}
return r;

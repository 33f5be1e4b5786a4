// expect: ok
// category: escape
// format: module
// value: ["rejected","rejected","rejected","rejected","rejected"]
// source: original (a dynamic import() of names computed at run time, from a module)
const names = [["f", "s"], ["node:", "os"], ["data:text/javascript,", "export default 1"], ["<co", "de>"], ["file:///", "etc/passwd"]];
const r = [];
for (const parts of names) {
  try { await import(parts.join("")); r.push("imported " + parts.join("")); } catch (e) { r.push("rejected"); }
}
export default r;

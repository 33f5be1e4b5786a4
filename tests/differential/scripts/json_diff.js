// A structural diff of two JSON documents as JSON-Patch-like operations.
function diff(a, b, path = "") {
  if (a === b) return [];
  const ta = Array.isArray(a) ? "array" : typeof a, tb = Array.isArray(b) ? "array" : typeof b;
  if (ta !== tb || a === null || b === null || ta !== "object" && ta !== "array") return [{ op: "replace", path: path || "/", from: a, to: b }];
  const ops = [];
  const keys = ta === "array" ? [...Array(Math.max(a.length, b.length)).keys()].map(String) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const p = `${path}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!(k in b)) ops.push({ op: "remove", path: p });
    else if (!(k in a)) ops.push({ op: "add", path: p, value: b[k] });
    else ops.push(...diff(a[k], b[k], p));
  }
  return ops;
}
return diff(input.before, input.after);

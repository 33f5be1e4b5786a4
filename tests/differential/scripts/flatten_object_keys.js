// Flatten nested objects to dotted keys (and back), as for env vars or
// spreadsheet columns.
function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length) flatten(v, key, out);
    else if (Array.isArray(v)) v.forEach((x, i) => (x && typeof x === "object" ? flatten(x, `${key}[${i}]`, out) : (out[`${key}[${i}]`] = x)));
    else out[key] = v;
  }
  return out;
}
function unflatten(flat) {
  const out = {};
  for (const [path, v] of Object.entries(flat)) {
    const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== "");
    let cur = out;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) cur[k] = v;
      else cur = cur[k] ??= /^\d+$/.test(keys[i + 1]) ? [] : {};
    });
  }
  return out;
}
const flat = flatten(input);
return { flat, roundTrip: JSON.stringify(unflatten(flat)) === JSON.stringify(input), env: Object.entries(flat).map(([k, v]) => `${k.toUpperCase().replace(/[.[\]]+/g, "_").replace(/_$/, "")}=${v}`) };

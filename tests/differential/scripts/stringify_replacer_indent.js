// JSON.stringify with replacers (function and allow-list), indentation,
// toJSON, and the values JSON cannot hold.
const data = {
  id: 7, name: "Ada", password: "secret", created: new Date(Date.UTC(2024, 0, 2)),
  nested: { token: "t", keep: [1, undefined, () => 1, Symbol("s"), NaN, -0, Infinity] },
  big: { toJSON(key) { return `toJSON(${key})`; } },
  u: undefined, m: new Map([[1, 2]]), s: new Set([1]),
};
return {
  redacted: JSON.stringify(data, (k, v) => (/password|token/.test(k) ? "[redacted]" : v)),
  allow: JSON.stringify(data, ["id", "name", "nested", "keep"]),
  indented: JSON.stringify({ a: [1, { b: 2 }], c: {} , d: []}, null, 2),
  tabs: JSON.stringify([{ x: 1 }], null, "\t"),
  longIndent: JSON.stringify({ a: 1 }, null, "-----------x"),
  prims: [JSON.stringify("\u2028\ud800\n\"é"), JSON.stringify(undefined), JSON.stringify(null), JSON.stringify(new Date(NaN))],
};

// CSV to typed records: infer each column's type (int, float, bool,
// date, string) from all its values, then convert.
const lines = input.trim().split("\n").map((l) => l.split(","));
const [head, ...body] = lines;
const tests = {
  int: (s) => /^-?\d+$/.test(s),
  float: (s) => /^-?\d*\.\d+$|^-?\d+(\.\d+)?e[+-]?\d+$/i.test(s) || /^-?\d+$/.test(s),
  bool: (s) => /^(true|false)$/i.test(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !isNaN(Date.parse(s)),
};
const types = head.map((_, j) => {
  const vals = body.map((r) => r[j]).filter((v) => v !== "");
  return Object.keys(tests).find((t) => vals.length && vals.every(tests[t])) ?? "string";
});
const conv = { int: (s) => parseInt(s, 10), float: Number, bool: (s) => s.toLowerCase() === "true", date: (s) => new Date(s).toISOString(), string: (s) => s };
return {
  types: Object.fromEntries(head.map((h, j) => [h, types[j]])),
  rows: body.map((r) => Object.fromEntries(head.map((h, j) => [h, r[j] === "" ? null : conv[types[j]](r[j])]))),
};

// Parse ISO timestamps the strict way only: the part of Date.parse that
// ECMAScript specifies, with validation of the fields.
const re = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;
return input.map((s) => {
  const m = re.exec(s);
  if (!m) return { s, error: "format" };
  const [, y, mo, d, h = "0", mi = "0", sec = "0", ms = "0", tz = "Z"] = m;
  const t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, +ms.padEnd(3, "0"));
  const check = new Date(t);
  if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d) return { s, error: "range" };
  const off = tz === "Z" ? 0 : (tz[0] === "-" ? -1 : 1) * (+tz.slice(1, 3) * 60 + +tz.slice(4));
  return { s, iso: new Date(t - off * 60000).toISOString(), same: Date.parse(s) === t - off * 60000 };
});

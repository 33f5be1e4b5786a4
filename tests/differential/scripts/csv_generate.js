// Generate CSV from objects: union of keys as header, quoting only when
// needed, dates and nested values serialised, formula injection guarded.
const rows = input;
const cols = [...new Set(rows.flatMap(Object.keys))];
const cell = (v) => {
  if (v == null) return "";
  let s = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (/^[=+\-@]/.test(s) && typeof v === "string") s = "'" + s;
  return /[",\n\r]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
};
return [cols.join(","), ...rows.map((r) => cols.map((c) => cell(r[c])).join(","))].join("\r\n");

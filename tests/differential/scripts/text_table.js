// Render rows as an aligned plain-text table: numbers right-aligned,
// text left-aligned, with a separator under the header.
const rows = input;
const cols = Object.keys(rows[0]);
const cell = (v) => (v == null ? "" : typeof v === "number" ? v.toFixed(Number.isInteger(v) ? 0 : 2) : String(v));
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
const line = (vals, isNum) => vals.map((v, i) => (isNum[i] ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join(" | ").trimEnd();
const numeric = cols.map((c) => rows.every((r) => r[c] == null || typeof r[c] === "number"));
return [
  line(cols, cols.map(() => false)),
  widths.map((w) => "-".repeat(w)).join("-+-"),
  ...rows.map((r) => line(cols.map((c) => cell(r[c])), numeric)),
];

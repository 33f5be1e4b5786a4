// Parse RFC 4180 CSV: quoted fields, doubled quotes, commas and newlines
// inside quotes, CRLF, a trailing newline, into objects by header.
function parseCSV(text, delim = ",") {
  const rows = [];
  let row = [], field = "", i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
        quoted = false; i++; continue;
      }
      field += c; i++; continue;
    }
    if (c === '"' && field === "") { quoted = true; i++; continue; }
    if (c === delim) { row.push(field); field = ""; i++; continue; }
    if (c === "\r" && text[i + 1] === "\n") i++;
    if (c === "\n" || c === "\r") { row.push(field); rows.push(row); row = []; field = ""; i++; continue; }
    field += c; i++;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}
const [header, ...rows] = parseCSV(input);
return rows.map((r) => Object.fromEntries(header.map((h, j) => [h.trim(), r[j] ?? null])));

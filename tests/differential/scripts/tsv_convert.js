// Convert TSV to CSV and back, and sum a column per group.
const tsv = input;
const rows = tsv.split(/\r?\n/).filter(Boolean).map((l) => l.split("\t"));
const q = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const csv = rows.map((r) => r.map(q).join(",")).join("\n");
const [h, ...data] = rows;
const gi = h.indexOf("team"), vi = h.indexOf("points");
const totals = {};
for (const r of data) totals[r[gi]] = (totals[r[gi]] ?? 0) + Number(r[vi]);
return { csv, totals, columns: h.length, widest: Math.max(...rows.flat().map((c) => c.length)) };

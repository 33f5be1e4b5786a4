// Parse access-log lines with named groups and summarise them.
const re = /^(?<ip>\d{1,3}(?:\.\d{1,3}){3}) - (?<user>\S+) \[(?<time>[^\]]+)\] "(?<method>[A-Z]+) (?<path>\S+) HTTP\/(?<ver>[\d.]+)" (?<status>\d{3}) (?<bytes>\d+|-)$/;
const rows = [], bad = [];
input.lines.forEach((line, i) => {
  const m = re.exec(line);
  if (!m) return bad.push(i);
  const { ip, user, method, path, status, bytes } = m.groups;
  rows.push({ ip, user: user === "-" ? null : user, method, path: path.split("?")[0], status: +status, bytes: bytes === "-" ? 0 : +bytes });
});
const byStatus = {};
for (const r of rows) byStatus[Math.floor(r.status / 100) + "xx"] = (byStatus[Math.floor(r.status / 100) + "xx"] ?? 0) + 1;
return { parsed: rows.length, bad, byStatus, bytes: rows.reduce((s, r) => s + r.bytes, 0), paths: [...new Set(rows.map((r) => r.path))] };

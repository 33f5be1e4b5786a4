// Month arithmetic: adding months clamps to the month's last day;
// Date.UTC's overflow gives last days and leap years.
const lastDay = (y, m) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
function addMonths(iso, n) {
  const d = new Date(iso + "T00:00:00Z");
  const y = d.getUTCFullYear(), m = d.getUTCMonth() + n;
  const target = new Date(Date.UTC(y, m, 1));
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay(target.getUTCFullYear(), target.getUTCMonth())));
  return target.toISOString().slice(0, 10);
}
return {
  lastDays: [[2024, 1], [2023, 1], [1900, 1], [2000, 1], [2024, 11]].map(([y, m]) => lastDay(y, m)),
  adds: [["2024-01-31", 1], ["2024-03-31", -1], ["2023-12-15", 14], ["2024-02-29", 12], ["2024-05-31", -15]].map(([d, n]) => addMonths(d, n)),
  overflow: new Date(Date.UTC(2024, 13, 35, 25, 61)).toISOString(),
  negative: new Date(Date.UTC(2024, 0, 0)).toISOString(),
  quarter: ["2024-01-15", "2024-05-01", "2024-09-30", "2024-12-31"].map((s) => `Q${Math.floor(new Date(s).getUTCMonth() / 3) + 1}`),
};

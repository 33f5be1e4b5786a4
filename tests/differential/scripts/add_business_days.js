// Add business days to a date, skipping weekends and listed holidays.
function addBusinessDays(iso, n, holidays) {
  const d = new Date(iso + "T00:00:00Z");
  const skip = new Set(holidays);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6 && !skip.has(d.toISOString().slice(0, 10))) left--;
  }
  return d.toISOString().slice(0, 10);
}
const holidays = ["2024-12-25", "2024-12-26", "2025-01-01"];
return [["2024-12-20", 1], ["2024-12-20", 3], ["2024-12-23", 5], ["2024-02-28", 2], ["2024-06-07", 10]].map(([d, n]) => `${d} + ${n} = ${addBusinessDays(d, n, holidays)}`);

// ISO 8601 week numbers and week-years (the week with the year's first Thursday is week 1).
function isoWeek(iso) {
  const d = new Date(iso + "T00:00:00Z");
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d - yearStart) / 86400000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}-${day}`;
}
return ["2024-01-01", "2023-01-01", "2020-12-31", "2021-01-03", "2026-12-31", "2027-01-01", "2024-12-30", "2015-12-28"].map((d) => [d, isoWeek(d)]);

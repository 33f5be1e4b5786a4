// "3 days ago" / "in 2 hours" against a fixed now, as a feed renders times.
const now = Date.parse(input.now);
const units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
function rel(iso) {
  const diff = Math.round((Date.parse(iso) - now) / 1000);
  const abs = Math.abs(diff);
  if (abs < 10) return "just now";
  for (const [u, s] of units) {
    if (abs >= s) {
      const n = Math.floor(abs / s);
      const label = `${n} ${u}${n === 1 ? "" : "s"}`;
      return diff < 0 ? `${label} ago` : `in ${label}`;
    }
  }
}
return input.times.map((t) => [t, rel(t)]);

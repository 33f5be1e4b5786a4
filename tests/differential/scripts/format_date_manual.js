// Format timestamps by hand with getUTC*: "Tue, 05 Mar 2024 09:07",
// 12-hour clock, ordinal days.
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const p2 = (n) => String(n).padStart(2, "0");
const ordinal = (n) => n + (["th", "st", "nd", "rd"][(n % 100 - 20) % 10] || ["th", "st", "nd", "rd"][n % 100] || "th");
return input.map((ts) => {
  const d = new Date(ts);
  const h = d.getUTCHours();
  return {
    rfc: `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(h)}:${p2(d.getUTCMinutes())}`,
    us: `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${h % 12 || 12}:${p2(d.getUTCMinutes())} ${h < 12 ? "AM" : "PM"}`,
    long: `${MONTHS[d.getUTCMonth()]} ${ordinal(d.getUTCDate())}, ${d.getUTCFullYear()}`,
    ms: d.getUTCMilliseconds(),
  };
});

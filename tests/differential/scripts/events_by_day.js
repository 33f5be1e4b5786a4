// Bucket event timestamps by UTC day and hour, find the busiest hour.
const byDay = {};
const byHour = new Array(24).fill(0);
for (const e of input) {
  const d = new Date(e.at);
  const day = d.toISOString().slice(0, 10);
  (byDay[day] ??= []).push(e.type);
  byHour[d.getUTCHours()]++;
}
const busiest = byHour.indexOf(Math.max(...byHour));
return {
  days: Object.keys(byDay).sort().map((d) => ({ d, n: byDay[d].length, types: [...new Set(byDay[d])].sort() })),
  busiestHour: `${String(busiest).padStart(2, "0")}:00`,
  span: (Math.max(...input.map((e) => Date.parse(e.at))) - Math.min(...input.map((e) => Date.parse(e.at)))) / 3600000,
};

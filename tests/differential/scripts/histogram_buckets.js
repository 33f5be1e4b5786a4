// Bucket values into a histogram with fixed-width bins and draw it as text bars.
const { values, bins } = input;
const min = Math.min(...values), max = Math.max(...values);
const width = (max - min) / bins;
const counts = new Array(bins).fill(0);
for (const v of values) counts[Math.min(bins - 1, Math.floor((v - min) / width))]++;
const peak = Math.max(...counts);
return counts.map((c, i) => {
  const lo = min + i * width;
  return `${lo.toFixed(1).padStart(6)}-${(lo + width).toFixed(1).padEnd(6)} ${"#".repeat(Math.round((c / peak) * 20)).padEnd(20)} ${c}`;
});

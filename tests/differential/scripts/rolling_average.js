// Rolling 3-point average and day-over-day change of a metric series.
const series = input.points;
const window = 3;
return series.map((p, i) => {
  const slice = series.slice(Math.max(0, i - window + 1), i + 1);
  const avg = slice.reduce((s, x) => s + x.value, 0) / slice.length;
  const prev = series[i - 1];
  return {
    day: p.day,
    value: p.value,
    avg3: Math.round(avg * 100) / 100,
    change: prev ? +(((p.value - prev.value) / prev.value) * 100).toFixed(1) : null,
  };
});

// Human durations from milliseconds, and ISO 8601 durations parsed back.
function human(ms) {
  if (ms < 1000) return `${ms}ms`;
  const parts = [];
  const units = [["d", 86400000], ["h", 3600000], ["m", 60000], ["s", 1000]];
  for (const [u, size] of units) {
    const n = Math.floor(ms / size);
    if (n) { parts.push(n + u); ms -= n * size; }
  }
  return parts.join(" ");
}
function parseIso(s) {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(s);
  if (!m) return null;
  const [, d = 0, h = 0, mi = 0, sec = 0] = m;
  return Math.round(((+d * 24 + +h) * 60 + +mi) * 60000 + +sec * 1000);
}
const samples = [999, 1000, 61000, 3723004, 90061000, 172800000];
return {
  human: samples.map(human),
  iso: ["PT1H30M", "P2DT3H", "PT0.5S", "PT45S", "P1Y", "PT"].map((s) => [s, parseIso(s), parseIso(s) == null ? null : human(parseIso(s))]),
  clock: samples.map((ms) => new Date(ms).toISOString().substr(11, 8)),
};

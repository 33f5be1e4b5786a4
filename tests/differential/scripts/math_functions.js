// Math functions on ordinary arguments: the geometry and conversions
// scripts compute (rounded to 12 significant digits, as a report would).
const r = (x) => Number(x.toPrecision(12));
const haversine = (a, b) => {
  const rad = (d) => (d * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]), dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
};
return {
  distanceKm: r(haversine([51.5074, -0.1278], [40.7128, -74.006])),
  trig: [Math.sin(1), Math.cos(2), Math.tan(0.5), Math.atan2(1, -1), Math.asin(0.3)].map(r),
  exp: [Math.exp(1), Math.log(10), Math.log2(1024), Math.log10(12345), Math.expm1(1e-5), Math.log1p(1e-5)].map(r),
  misc: [Math.hypot(3, 4, 12), Math.cbrt(-27), Math.fround(5.5), Math.fround(5.05), Math.clz32(1), Math.imul(0xffffffff, 5), Math.sign(-3)],
  pow: [2 ** -1074, 10 ** 21, (-8) ** (1 / 3), 0.1 ** 2, Math.pow(2, 0.5)].map(String),
  minmax: [Math.max(), Math.min(), Math.max(1, NaN), Math.round(-2.5), Math.round(2.5), Math.round(-0.4)].map(String),
};

// Rounding money the ways generated code does, including the pitfalls
// of toFixed and binary floating point.
const round = (n, d = 2) => Math.round((n + Number.EPSILON) * 10 ** d) / 10 ** d;
const bankers = (n, d = 2) => {
  const f = 10 ** d, x = n * f, r = Math.round(x);
  return (Math.abs(x % 1) === 0.5 ? (r % 2 === 0 ? r : r - 1) : r) / f;
};
const vals = [1.005, 2.675, 1.45, 0.1 + 0.2, -1.5, -0.5, 1e21, 123.456, 0.000001234, 5e-7];
return vals.map((v) => ({
  v: String(v),
  fixed2: v.toFixed(2),
  round: round(v),
  bankers: bankers(v),
  prec3: v.toPrecision(3),
  exp: v.toExponential(2),
  floor: Math.floor(v * 100) / 100,
  trunc: Math.trunc(v),
}));

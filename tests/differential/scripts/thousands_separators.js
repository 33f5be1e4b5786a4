// Format numbers with thousands separators by hand (regex), compact
// notation (1.2K, 3.4M) and byte sizes.
const sep = (n, d = 2) => {
  const [i, f] = Math.abs(n).toFixed(d).split(".");
  return (n < 0 ? "-" : "") + i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (f ? "." + f : "");
};
const compact = (n) => {
  for (const [s, v] of [["B", 1e9], ["M", 1e6], ["K", 1e3]]) if (Math.abs(n) >= v) return +(n / v).toFixed(1) + s;
  return String(n);
};
const bytes = (b) => {
  const u = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
  return `${i ? b.toFixed(1) : b} ${u[i]}`;
};
const nums = [0, 999, 1000, 1234567.891, -9876543.21, 1e15, 0.5];
return { sep: nums.map((n) => sep(n)), sep0: nums.map((n) => sep(n, 0)), compact: nums.map(compact), bytes: [0, 1023, 1024, 1536, 10485760, 5e12].map(bytes) };

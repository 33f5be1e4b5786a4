// Truncate text for previews without splitting surrogate pairs, and count
// characters the way users see them.
const truncate = (s, n) => {
  const chars = Array.from(s);
  return chars.length <= n ? s : chars.slice(0, n - 1).join("") + "…";
};
const samples = ["Hello 👋 world 🌍🌍", "naïve café", "𝓯𝓪𝓷𝓬𝔂 text", "short"];
return samples.map((s) => ({
  s,
  utf16: s.length,
  codePoints: [...s].length,
  preview: truncate(s, 8),
  naive: s.slice(0, 7),
  firstCodePoint: s.codePointAt(0),
  wellFormedNaive: !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s.slice(0, 7)),
}));

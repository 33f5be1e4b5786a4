// Slugify article titles: strip diacritics, lower-case, dashes, dedupe.
const slugify = (s) => s
  .normalize("NFKD")
  .replace(/[\u0300-\u036f]/g, "")
  .toLowerCase()
  .replace(/&/g, " and ")
  .replace(/[^a-z0-9]+/g, "-")
  .replace(/^-+|-+$/g, "")
  .slice(0, 40)
  .replace(/-+$/, "");
const used = new Map();
return input.map((title) => {
  const base = slugify(title) || "untitled";
  const n = used.get(base) ?? 0;
  used.set(base, n + 1);
  return n ? `${base}-${n + 1}` : base;
});

// Convert identifiers between camelCase, snake_case, kebab-case,
// PascalCase and Title Case, handling acronyms and digits.
const words = (s) => s
  .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
  .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
  .split(/[^A-Za-z0-9]+/)
  .filter(Boolean)
  .map((w) => w.toLowerCase());
const cap = (w) => w[0].toUpperCase() + w.slice(1);
const conv = {
  camel: (s) => words(s).map((w, i) => (i ? cap(w) : w)).join(""),
  snake: (s) => words(s).join("_"),
  kebab: (s) => words(s).join("-"),
  pascal: (s) => words(s).map(cap).join(""),
  title: (s) => words(s).map(cap).join(" "),
  constant: (s) => words(s).join("_").toUpperCase(),
};
return Object.fromEntries(input.map((s) => [s, Object.fromEntries(Object.entries(conv).map(([k, f]) => [k, f(s)]))]));

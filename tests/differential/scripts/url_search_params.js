// Build and read query strings with URLSearchParams: repeated keys,
// encoding of spaces and symbols, sorting, deleting, iteration.
const p = new URLSearchParams({ q: "café & crème", page: "2" });
p.append("tag", "a b");
p.append("tag", "c+d");
p.set("page", "3");
const parsed = new URLSearchParams("?a=1&b=x%20y&a=2&c=&d&e=%F0%9F%98%80&f=1+2");
const sorted = new URLSearchParams("z=1&a=2&m=3&a=1");
sorted.sort();
parsed.delete("c");
const u = new URL("https://api.example.com/search");
u.searchParams.set("q", "a/b?c");
u.searchParams.append("limit", 10);
return {
  built: p.toString(),
  tags: p.getAll("tag"),
  get: [parsed.get("a"), parsed.get("b"), parsed.get("d"), parsed.get("e"), parsed.get("f"), parsed.get("missing")],
  has: [parsed.has("c"), parsed.has("d")],
  entries: [...parsed],
  sorted: sorted.toString(),
  url: u.href,
  size: typeof parsed.size === "number" ? parsed.size : null,
  fromPairs: new URLSearchParams([["x", "1"], ["y", "=&"]]).toString(),
};

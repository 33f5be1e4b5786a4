// Resolve links found on a page against its base URL, as a crawler or
// link checker would, and classify them.
const base = "https://docs.example.com/guide/intro/index.html?v=2#top";
const links = ["../api/", "./setup.html", "/search?q=x", "//cdn.example.net/lib.js", "#section", "?page=3", "https://other.org", "mailto:a@b.c", "..", "a/b/../../c", "   spaced.html  ", "javascript:void(0)"];
return links.map((l) => {
  const u = new URL(l, base);
  return { l, href: u.href, external: u.origin !== new URL(base).origin, kind: u.protocol === "https:" ? "web" : u.protocol.slice(0, -1) };
});

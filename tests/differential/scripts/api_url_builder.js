// An API client's URL builder: path templates with encoded parameters,
// query from an object (arrays repeated, nulls dropped), base paths.
function buildUrl(base, template, params = {}, query = {}) {
  const path = template.replace(/:(\w+)/g, (_, k) => {
    if (!(k in params)) throw new Error(`missing path parameter ${k}`);
    return encodeURIComponent(params[k]);
  });
  const u = new URL(path.replace(/^\//, ""), base.endsWith("/") ? base : base + "/");
  for (const [k, v] of Object.entries(query)) {
    if (v == null) continue;
    for (const x of [].concat(v)) u.searchParams.append(k, x instanceof Date ? x.toISOString() : String(x));
  }
  return u.href;
}
const out = [
  buildUrl("https://api.example.com/v2", "/repos/:owner/:repo/issues", { owner: "acme corp", repo: "a/b" }, { state: "open", labels: ["bug", "p1"], since: new Date(Date.UTC(2024, 0, 1)), page: null }),
  buildUrl("https://api.example.com/v2/", "users/:id", { id: "ü@x" }, { fields: "name,email", q: "a&b=c" }),
];
try { buildUrl("https://x.org", "/a/:b"); } catch (e) { out.push(e.message); }
return out;

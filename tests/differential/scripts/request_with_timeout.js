// Race each data request against a setTimeout deadline and fall back to
// a default, as a resilient tool call does.
const withDefault = (p, ms, fallback) => {
  let t;
  return Promise.race([p, new Promise((r) => { t = setTimeout(() => r(fallback), ms); })]).finally(() => clearTimeout(t));
};
const names = ["prices", "missing", "stock"];
const results = await Promise.all(names.map((n) => withDefault(host.request(n).catch((e) => ({ error: e.message })), 500, { timedOut: true })));
const slow = await withDefault(new Promise((r) => setTimeout(() => r("slow value"), 400)), 5, "fallback");
return { results, slow };

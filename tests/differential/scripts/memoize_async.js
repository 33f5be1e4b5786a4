// Memoise an async loader so concurrent callers share one data request.
let requests = 0;
const cache = new Map();
const load = (name) => {
  if (!cache.has(name)) {
    requests++;
    cache.set(name, host.request(name).catch((e) => { cache.delete(name); throw e; }));
  }
  return cache.get(name);
};
const results = await Promise.all(["rates", "rates", "fx", "rates", "fx"].map(load));
let missing;
try { await load("nope"); } catch (e) { missing = e.message; }
try { await load("nope"); } catch (e) { missing += " / again"; }
return { requests, results, missing, cached: [...cache.keys()] };

// Query several sources, some missing, with Promise.allSettled, and report
// which failed and why (the rejection messages are values).
const sources = ["weather", "news", "stocks", "sports"];
const results = await Promise.allSettled(sources.map((s) => host.request(s)));
return results.map((r, i) => r.status === "fulfilled"
  ? { source: sources[i], ok: true, items: Array.isArray(r.value) ? r.value.length : Object.keys(r.value).length }
  : { source: sources[i], ok: false, error: r.reason instanceof Error ? r.reason.message : String(r.reason) });

// Cancel pending work with AbortController: an abortable sleep, the
// signal's reason, listeners, and throwIfAborted.
const sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const t = setTimeout(() => resolve(`slept ${ms}`), ms);
  signal?.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason); }, { once: true });
});
const c = new AbortController();
const events = [];
c.signal.addEventListener("abort", (e) => events.push(`${e.type}:${e.target === c.signal}`));
c.signal.onabort = () => events.push("onabort");
setTimeout(() => c.abort(), 60); // well after the 1 ms sleep, even on a loaded machine
const results = await Promise.allSettled([sleep(1, c.signal), sleep(2000, c.signal)]);
const custom = new AbortController();
custom.abort(new Error("user cancelled"));
let thrown;
try { custom.signal.throwIfAborted(); } catch (e) { thrown = e.message; }
c.abort("again");
return {
  results: results.map((r) => r.status === "fulfilled" ? r.value : `${r.reason.name}: ${r.reason.message}`),
  events,
  aborted: c.signal.aborted,
  reason: [c.signal.reason instanceof DOMException, c.signal.reason.name, c.signal.reason.code],
  thrown,
  static: [AbortSignal.abort().aborted, AbortSignal.abort("why").reason],
};

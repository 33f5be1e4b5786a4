// AbortSignal.timeout as a deadline for a chain of steps, and
// AbortSignal.any combining a user signal with a timeout if present.
const step = (ms, signal) => new Promise((res, rej) => {
  const t = setTimeout(res, ms, ms);
  signal.addEventListener("abort", () => { clearTimeout(t); rej(signal.reason); });
});
const done = [];
let error;
const signal = AbortSignal.timeout(400);
try {
  for (const ms of [5, 5, 2000, 5]) done.push(await step(ms, signal));
} catch (e) {
  error = [e.name, e instanceof DOMException, e.message, signal.aborted];
}
const user = new AbortController();
const any = typeof AbortSignal.any === "function" ? AbortSignal.any([user.signal, AbortSignal.timeout(1000)]) : null;
user.abort("stop");
return { done, error, any: any && [any.aborted, any.reason] };

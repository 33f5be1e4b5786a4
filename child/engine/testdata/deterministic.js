// Reads every source of entropy and time a guest can reach (the engine's
// deterministic.go lists them), through timers, a data request that
// echoes its arguments, and the logs. The engine's tests and tests/ run
// it in deterministic mode and compare the envelopes.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = {};
out.random = [Math.random(), Math.random(), Math.random()];
out.bytes = Array.from(crypto.getRandomValues(new Uint8Array(12)));
out.words = Array.from(crypto.getRandomValues(new Uint32Array(2)));
out.uuid = crypto.randomUUID();
out.now = Date.now();
out.date = new Date().toISOString();
out.dateString = String(new Date());
out.origin = performance.timeOrigin;
out.perf0 = performance.now();
out.intl = new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "long" }).format();
const key = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
out.key = Array.from(new Uint8Array(await crypto.subtle.exportKey("raw", key)));
const t0 = Date.now();
await sleep(250);
out.slept = Date.now() - t0;
out.perf1 = performance.now();
const ticks = [];
await new Promise((done) => {
  const i = setInterval(() => { ticks.push(performance.now()); if (ticks.length === 3) { clearInterval(i); done(); } }, 7);
});
out.ticks = ticks;
out.answer = await host.request("echo", { at: Date.now(), r: Math.random() });
console.log("logged at", Date.now(), Math.random());
out.later = [Date.now(), Math.random(), crypto.randomUUID()];
out.map = [...new Map([[3, "c"], [1, "a"], [2, "b"]]).keys()];
return out;

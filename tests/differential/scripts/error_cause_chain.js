// Wrap low-level errors with context using `cause`, then render the
// chain the way a log line would.
function parseConfig(text) {
  try { return JSON.parse(text); }
  catch (e) { throw new Error("config is not valid JSON", { cause: e }); }
}
function loadService(text) {
  try { const c = parseConfig(text); if (!c.port) throw new RangeError("port missing"); return c; }
  catch (e) { throw new Error("cannot start service", { cause: e }); }
}
const chain = (e) => { const out = []; for (let x = e; x; x = x.cause) out.push(x instanceof Error ? x.name : typeof x); return out.join(" <- "); };
const outcomes = ['{"port": 80}', '{"host": "x"}', "{bad"].map((t) => {
  try { return { ok: loadService(t) }; } catch (e) { return { error: e.message, chain: chain(e), innermost: (() => { let x = e; while (x.cause) x = x.cause; return x.name; })() }; }
});
return { outcomes, hasCause: ["cause" in new Error("x"), "cause" in new Error("x", { cause: undefined }), new Error("x", { cause: 0 }).cause] };

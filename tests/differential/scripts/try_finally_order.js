// try/catch/finally ordering, finally overriding return, nested rethrow,
// and async finally with await.
const log = [];
function f(mode) {
  try {
    log.push(`try:${mode}`);
    if (mode === "throw") throw new Error("t");
    return "from-try";
  } catch (e) {
    log.push("catch");
    if (mode === "throw") throw new Error("from-catch", { cause: e });
  } finally {
    log.push("finally");
    if (mode === "override") return "from-finally";
  }
}
const results = [];
for (const m of ["ok", "throw", "override"]) {
  try { results.push(f(m)); } catch (e) { results.push(`${e.message}<-${e.cause?.message}`); }
}
async function g() {
  try { await Promise.reject(new TypeError("async fail")); }
  catch (e) { log.push(`async-catch:${e.name}`); return "recovered"; }
  finally { await null; log.push("async-finally"); }
}
results.push(await g());
let loops = 0;
for (const x of [1, 2, 3]) { try { if (x === 2) continue; if (x === 3) break; } finally { loops++; } }
return { results, log, loops };

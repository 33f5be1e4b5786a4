// A timeout around slow work with Promise.race and setTimeout, clearing
// the timer when the work wins.
const sleep = (ms, v) => new Promise((r) => setTimeout(() => r(v), ms));
function withTimeout(p, ms) {
  let timer;
  const t = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
const results = [];
for (const [work, limit] of [[5, 200], [300, 10]]) {
  try { results.push(await withTimeout(sleep(work, `done in ${work}`), limit)); }
  catch (e) { results.push(e.message); }
}
const fastest = await Promise.race([sleep(30, "slow"), sleep(1, "fast"), sleep(15, "medium")]);
return { results, fastest };

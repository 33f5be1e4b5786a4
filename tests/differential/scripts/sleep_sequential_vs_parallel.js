// Sequential awaits versus Promise.all over setTimeout-based tasks:
// results and completion order (not wall time).
const task = (name, ms, log) => new Promise((r) => setTimeout(() => { log.push(name); r(name.toUpperCase()); }, ms));
const seqLog = [], parLog = [];
const seq = [];
for (const [n, ms] of [["a", 20], ["b", 1], ["c", 10]]) seq.push(await task(n, ms, seqLog));
const par = await Promise.all([["a", 20], ["b", 1], ["c", 10]].map(([n, ms]) => task(n, ms, parLog)));
const settled = await Promise.allSettled([task("x", 5, []), new Promise((_, rej) => setTimeout(() => rej(new RangeError("late failure")), 3))]);
return { seq, seqLog, par, parLog, settled: settled.map((s) => s.status === "fulfilled" ? s.value : `${s.reason.name}: ${s.reason.message}`) };

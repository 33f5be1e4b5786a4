// An async generator yielding batches from a data source, consumed with
// for await, with early exit closing the generator.
const log = [];
async function* batches(names) {
  try {
    for (const n of names) {
      const rows = await host.request(n);
      log.push(`fetched ${n}`);
      yield rows;
    }
  } finally {
    log.push("closed");
  }
}
let total = 0;
for await (const rows of batches(["b1", "b2", "b3"])) {
  total += rows.reduce((s, r) => s + r, 0);
  if (total > 10) break;
}
const sync = [];
for await (const x of [Promise.resolve(1), 2, Promise.resolve(3)]) sync.push(x);
return { total, log, sync };

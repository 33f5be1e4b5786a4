// Yield to the event loop in a long job with setImmediate, as Node code
// does to let timers and I/O run between batches.
const order = [];
setTimeout(() => order.push("timeout"), 0);
let processed = 0;
for (let batch = 0; batch < 3; batch++) {
  for (let i = 0; i < 1000; i++) processed++;
  order.push(`batch${batch}`);
  await new Promise((r) => setImmediate(r));
}
const immediate = setImmediate(() => order.push("cancelled"));
clearImmediate(immediate);
await new Promise((r) => setTimeout(r, 5));
return { processed, order: order.filter((x) => x !== "timeout"), sawTimeout: order.includes("timeout") };

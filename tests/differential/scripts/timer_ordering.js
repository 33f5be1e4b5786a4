// The order timers fire in: by delay, then by creation; setTimeout(0)
// after microtasks; clearTimeout; nested timers; setInterval counted.
// (A timer set inside a callback counts from when that callback ran, so
// the delays leave a wide margin for a stalled process.)
const order = [];
await new Promise((done) => {
  setTimeout(() => order.push("t150"), 150);
  setTimeout(() => order.push("t0-a"), 0);
  setTimeout(() => { order.push("t5"); setTimeout(() => order.push("nested0"), 0); }, 5);
  const c = setTimeout(() => order.push("cancelled"), 1);
  setTimeout(() => order.push("t0-b"));
  clearTimeout(c);
  Promise.resolve().then(() => order.push("micro"));
  let n = 0;
  const iv = setInterval(() => {
    order.push(`iv${++n}`);
    if (n === 3) { clearInterval(iv); done(); }
  }, 200);
  order.push("sync");
});
const args = await new Promise((r) => setTimeout((a, b) => r([a, b]), 1, "x", 2));
return { order, args };

// The order timers fire in: by delay, then by creation; setTimeout(0)
// after microtasks; clearTimeout; nested timers; setInterval counted.
const order = [];
await new Promise((done) => {
  setTimeout(() => order.push("t20"), 20);
  setTimeout(() => order.push("t0-a"), 0);
  setTimeout(() => { order.push("t5"); setTimeout(() => order.push("nested0"), 0); }, 5);
  const c = setTimeout(() => order.push("cancelled"), 1);
  setTimeout(() => order.push("t0-b"));
  clearTimeout(c);
  Promise.resolve().then(() => order.push("micro"));
  let n = 0;
  const iv = setInterval(() => { order.push(`iv${++n}`); if (n === 3) clearInterval(iv); }, 30);
  setTimeout(() => done(), 150);
  order.push("sync");
});
const args = await new Promise((r) => setTimeout((a, b) => r([a, b]), 1, "x", 2));
return { order, args };

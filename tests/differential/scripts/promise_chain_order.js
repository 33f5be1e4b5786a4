// The order promise callbacks run in: then chains, async functions and
// await interleave deterministically.
const order = [];
const p = Promise.resolve();
p.then(() => order.push("a1")).then(() => order.push("a2")).then(() => order.push("a3"));
p.then(() => order.push("b1")).then(() => order.push("b2"));
(async () => { order.push("c0"); await null; order.push("c1"); await new Promise((r) => r()); order.push("c2"); })();
order.push("sync");
await Promise.resolve().then(() => {}).then(() => {}).then(() => {}).then(() => {});
const thenable = { then(res) { order.push("thenable"); res("t"); } };
order.push(await thenable);
return order;

// queueMicrotask against promise callbacks and timers, and an error in a
// microtask caught by the code that queued it.
const order = [];
setTimeout(() => order.push("timeout"), 0);
queueMicrotask(() => order.push("micro1"));
Promise.resolve().then(() => order.push("promise1"));
queueMicrotask(() => { order.push("micro2"); queueMicrotask(() => order.push("micro-nested")); });
order.push("sync");
await new Promise((r) => setTimeout(r, 5));
let typeErr;
try { queueMicrotask("not a function"); } catch (e) { typeErr = e.name; }
return { order, typeErr, name: queueMicrotask.name, length: queueMicrotask.length };

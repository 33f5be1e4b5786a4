// expect: TimeoutError
// An endless microtask loop: each job queues the next and returns nothing,
// so memory stays flat and only the deadline can stop it. (Returning the
// next promise instead chains them all, and then the 16 MiB heap or the
// deadline ends it first depending on the machine's speed.)
const spin = () => { Promise.resolve().then(spin); };
spin();
await new Promise(() => {});

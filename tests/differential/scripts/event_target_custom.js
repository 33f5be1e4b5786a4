// EventTarget and Event as an in-process event bus: listeners, once,
// removeEventListener, preventDefault, and dispatch results.
const bus = new EventTarget();
const log = [];
const onSave = (e) => log.push(`save:${e.type}:${e.cancelable}`);
bus.addEventListener("save", onSave);
bus.addEventListener("save", () => log.push("once"), { once: true });
bus.addEventListener("delete", (e) => { e.preventDefault(); log.push("delete prevented"); });
bus.addEventListener("save", { handleEvent(e) { log.push(`object:${e.type}:${e.target === bus}`); } });
const r1 = bus.dispatchEvent(new Event("save"));
const r2 = bus.dispatchEvent(new Event("delete", { cancelable: true }));
bus.removeEventListener("save", onSave);
bus.dispatchEvent(new Event("save"));
const e = new Event("x");
return { log, results: [r1, r2], defaultPrevented: e.defaultPrevented, props: [e.type, e.bubbles, e.cancelable, typeof e.timeStamp, e.isTrusted] };

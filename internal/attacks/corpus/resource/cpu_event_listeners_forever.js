// expect: TimeoutError
// category: resource
// timeout: 300ms
// memory: 256MiB
// source: original (each listener adds one; as in Node, a listener added during a dispatch runs in it)
const t = new EventTarget();
function add() { t.addEventListener("x", () => add()); }
add();
add();
t.dispatchEvent(new Event("x"));

// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (an endless toString run by the guest's own catch)
const e = { toString() { for (;;) {} } };
try { throw e; } catch (x) { return "" + x; }

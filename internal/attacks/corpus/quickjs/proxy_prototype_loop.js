// expect: TimeoutError
// category: quickjs
// timeout: 500ms
// The prototype walk never ends (each step calls the trap): only the deadline ends it.
// source: QuickJS Proxy getPrototypeOf recursion reports
const p = new Proxy({}, { getPrototypeOf() { return p; } });
return ({}) instanceof (function () {}) || p instanceof Object;

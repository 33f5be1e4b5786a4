// expect: ResourceError/stack | UserCodeError | TimeoutError
// category: quickjs
// timeout: 500ms
// source: QuickJS Proxy getPrototypeOf recursion reports
const p = new Proxy({}, { getPrototypeOf() { return p; } });
return ({}) instanceof (function () {}) || p instanceof Object;

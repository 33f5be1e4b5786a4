// expect: ok
// category: escape
// value: {"calls":0,"first":"TypeError","prelude":false}
// source: original (a guest's setters, getters and replaced intrinsics in reach of the prelude's stack rewriting)
let calls = 0;
const spy = { get() { calls++; return undefined; }, set(v) { calls++; }, configurable: true };
for (let i = 0; i < 12; i++) Object.defineProperty(Array.prototype, i, spy);
for (const k of ["name", "file", "line", "col", "native", "raw", "text", "get", "apply", "<code>", "<input>", "m"]) Object.defineProperty(Object.prototype, k, spy);
String.prototype.slice = String.prototype.indexOf = String.prototype.charCodeAt = function () { calls++; return ""; };
WeakMap.prototype.get = WeakMap.prototype.set = function () { calls++; };
Reflect.apply = RegExp.prototype.exec = Object.setPrototypeOf = function () { calls++; };
JSON.parse = JSON.stringify = function () { calls++; };
let stack;
try { null.x; } catch (e) { stack = e.stack; }
for (let i = 0; i < 12; i++) delete Array.prototype[i];
for (const k of ["name", "file", "line", "col", "native", "raw", "text", "get", "apply", "<code>", "<input>", "m"]) delete Object.prototype[k];
return { calls, first: stack.split(":")[0], prelude: stack.includes("prelude") };

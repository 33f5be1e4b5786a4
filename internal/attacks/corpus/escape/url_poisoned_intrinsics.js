// expect: ok
// category: escape
// value: ["https://xn--bcher-kva.de:8080/a/c?x=1&y=%C3%A9#f","x=1&y=%C3%A9",["x","1"],"[::1]","1.2.3.4",0]
// source: original (URL's parser and URLSearchParams keep working when user code replaces the String, Array, RegExp and Object intrinsics they could have used)
let calls = 0;
const trap = function () { calls++; throw new Error("poisoned"); };
for (const k of ["slice", "charCodeAt", "indexOf", "toLowerCase", "normalize", "toWellFormed", "concat", "split", "replace"]) String.prototype[k] = trap;
for (const k of ["push", "pop", "slice", "sort", "join", "map", "indexOf"]) Array.prototype[k] = trap;
RegExp.prototype.test = trap;
RegExp.prototype.exec = trap;
String.fromCharCode = trap;
Object.setPrototypeOf = trap;
Object.defineProperty(Array.prototype, "0", { set: trap, configurable: true });
Object.defineProperty(Object.prototype, "scheme", { set: trap, get: trap, configurable: true });
Math.floor = trap;
const u = new URL("HTTPS://B\u00fccher.DE:8080/a/./b/../c?x=1#f");
u.searchParams.append("y", "\u00e9");
const first = u.searchParams.entries().next().value;
const href = u.href, query = u.searchParams.toString(), v6 = new URL("http://[0:0::1]/").host, v4 = new URL("http://0x1.2.0x3.4/").hostname;
// The index setter goes before the result is built (QuickJS's own
// JSON.stringify, which serialises the result, trips on it).
delete Array.prototype[0];
return [href, query, first, v6, v4, calls];

// expect: ok
// category: escape
// value: [["ownKeys","getOwnPropertyDescriptor a","get a","getOwnPropertyDescriptor b","get b","getOwnPropertyDescriptor c"],"a=1&b=%5Bobject+Object%5D","caught: getter"]
// source: original (URLSearchParams from a Proxy record: only the traps Node's constructor calls run, in its order; a throwing getter's error reaches the caller)
const log = [];
const target = { a: 1, b: {}, c: 3 };
const p = new Proxy(target, {
  get(t, k) { if (typeof k === "string") log.push("get " + k); return t[k]; },
  ownKeys(t) { log.push("ownKeys"); return Reflect.ownKeys(t); },
  getOwnPropertyDescriptor(t, k) {
    log.push("getOwnPropertyDescriptor " + String(k));
    const d = Reflect.getOwnPropertyDescriptor(t, k);
    if (k === "c") d.enumerable = false;
    return d;
  },
});
const params = new URLSearchParams(p);
let caught = "none";
try {
  new URLSearchParams({ get x() { throw new Error("getter"); } });
} catch (e) {
  caught = "caught: " + e.message;
}
return [log, String(params), caught];

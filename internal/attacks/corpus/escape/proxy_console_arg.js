// expect: ok
// category: escape
// value: "done"
// source: original (Proxy traps when console formats its arguments)
const p = new Proxy({}, { get(t, k) { if (k === "toJSON") throw new Error("trap"); return undefined; } });
try { console.log(p); } catch (e) { /* the guest's own error */ }
return "done";

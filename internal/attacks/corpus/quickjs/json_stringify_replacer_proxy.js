// expect: ok
// category: quickjs
// value: "survived"
// source: original
const rep = new Proxy(["a"], { get(t, k) { if (k === "length") return 1e4; return t[k]; } });
try { JSON.stringify({ a: 1 }, rep); } catch (e) {}
return "survived";

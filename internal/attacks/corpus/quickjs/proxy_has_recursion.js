// expect: ResourceError/stack
// category: quickjs
// source: original
let p;
p = new Proxy({}, { has(t, k) { return k in p; } });
return "x" in p;

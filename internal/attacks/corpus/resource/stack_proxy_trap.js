// expect: ResourceError/stack
// category: resource
// source: original
const p = new Proxy({}, { get(t, k, r) { return r[k]; } });
return p.x;

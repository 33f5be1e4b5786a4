// expect: ResourceError/stack
// category: resource
// source: original
const o = { get x() { return this.x; } };
return o.x;

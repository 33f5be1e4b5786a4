// expect: ResourceError/stack
// category: resource
// source: original
const o = { toString() { return "" + this; } };
return "" + o;

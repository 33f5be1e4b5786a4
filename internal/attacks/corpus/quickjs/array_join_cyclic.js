// expect: ResourceError/stack
// category: quickjs
// source: original (join of an array containing itself recurses: the stack limit, not a crash)
const a = [1, null, 3];
a[1] = a;
return a.join();

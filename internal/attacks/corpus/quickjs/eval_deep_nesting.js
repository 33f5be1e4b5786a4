// expect: ResourceError/stack
// category: quickjs
// source: QuickJS parser recursion reports
return eval("[".repeat(100000) + "]".repeat(100000));

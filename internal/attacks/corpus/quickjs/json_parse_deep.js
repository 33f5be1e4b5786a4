// expect: ResourceError/stack
// category: quickjs
// source: QuickJS JSON.parse recursion reports
return JSON.parse("[".repeat(1e6) + "]".repeat(1e6));

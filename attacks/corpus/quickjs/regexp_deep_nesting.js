// expect: ok | UserCodeError | ResourceError/stack
// value: any
// category: quickjs
// source: QuickJS regexp parser recursion reports
const src = "(".repeat(100000) + "a" + ")".repeat(100000);
return new RegExp(src).test("a");

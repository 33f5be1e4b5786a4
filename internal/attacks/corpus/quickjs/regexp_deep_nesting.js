// expect: UserCodeError
// category: quickjs
// QuickJS refuses past 255 capture groups with a SyntaxError.
// source: QuickJS regexp parser recursion reports
const src = "(".repeat(100000) + "a" + ")".repeat(100000);
return new RegExp(src).test("a");

// expect: ok
// category: quickjs
// value: [true,false]
// source: original (the v flag)
return [/[\p{L}--[a-z]]/v.test("A"), /[\p{L}--[a-z]]/v.test("a")];

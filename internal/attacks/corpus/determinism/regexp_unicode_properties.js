// expect: ok
// category: determinism
// value: [true,true,false]
// source: original
return [/\p{Script=Greek}/u.test("α"), /\p{Emoji}/u.test("😀"), /\p{Lu}/u.test("a")];

// expect: ok
// category: quickjs
// value: "survived"
// source: QuickJS regexp quantifier overflow reports
for (const src of ["a{0,4294967295}", "(?:a{2147483647}){2}", "a{4294967296}"]) {
  try { new RegExp(src).test("aaa"); } catch (e) {}
}
return "survived";

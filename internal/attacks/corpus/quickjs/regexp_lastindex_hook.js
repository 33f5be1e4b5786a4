// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2019-9106 class (lastIndex valueOf changing the regexp)
const re = /a/g;
re.lastIndex = { valueOf() { re.compile("b+", "g"); return 0; } };
try { re.exec("aaaa"); "aaaa".replace(re, "x"); } catch (e) {}
return "survived";

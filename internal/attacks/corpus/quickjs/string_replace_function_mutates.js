// expect: ok
// category: quickjs
// value: "survived"
// source: original (a replacer that changes the regexp)
const re = /a/g;
"aaaa".replace(re, () => { re.lastIndex = 1e9; re.compile("b"); return "c"; });
return "survived";

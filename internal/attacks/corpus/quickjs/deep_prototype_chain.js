// expect: ok
// category: quickjs
// value: "survived"
// source: original
let o = {};
for (let i = 0; i < 10000; i++) o = Object.create(o);
void o.missing;
void ("x" in o);
return "survived";

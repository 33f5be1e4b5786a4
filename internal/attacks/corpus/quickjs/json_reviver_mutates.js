// expect: ok
// category: quickjs
// value: "survived"
// source: CVE-2015-6764 class (reviver mutating the holder)
JSON.parse('{"a":[1,2,3],"b":{"c":1}}', function (k, v) { if (k === "a") { delete this.b; this.c = new Array(1000); } return v; });
return "survived";

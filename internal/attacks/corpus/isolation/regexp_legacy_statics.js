// expect: ok
// category: isolation
// value: true
// source: original (RegExp.$1 and lastMatch left by the previous run)
/(secret-\d+)/.test("the secret-42 value");
return 1;
//== next
return typeof RegExp.$1 === "undefined" || (RegExp.$1 !== "secret-42" && RegExp.lastMatch !== "secret-42");

// expect: ok
// category: escape
// value: "done"
// logs: ["a {\"x\":1}"]
// source: original (pollution while the host collects console arguments)
Object.prototype.level = "error";
Object.prototype.text = "forged";
Array.prototype.join = function () { return "forged"; };
String.prototype.concat = function () { return "forged"; };
console.log("a", { x: 1 });
return "done";

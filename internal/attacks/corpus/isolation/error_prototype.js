// expect: ok
// category: isolation
// value: "Error: x"
// source: original
Error.prototype.toString = () => "forged";
return 1;
//== next
return String(new Error("x"));

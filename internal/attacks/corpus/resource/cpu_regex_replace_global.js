// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (ReDoS inside String.prototype.replace)
return ("a".repeat(40) + "!").replace(/(a*)*$/g, "x");

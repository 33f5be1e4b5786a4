// expect: ok
// category: resource
// value: "done"
// timeout: 5s
// source: original (one log entry over the output limit)
console.log("x".repeat(2 << 20));
return "done";

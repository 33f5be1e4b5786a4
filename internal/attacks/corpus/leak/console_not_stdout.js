// expect: ok
// category: leak
// value: "done"
// logs: ["visible only in the envelope"]
// source: original (console goes to the envelope, never to the host's output)
console.log("visible only in the envelope");
return "done";

// expect: ok
// category: resource
// value: "done"
// limits: {"output_bytes": 256}
// source: original (logs cut at a small limit, the value still fits)
for (let i = 0; i < 100; i++) console.log("line " + i);
return "done";

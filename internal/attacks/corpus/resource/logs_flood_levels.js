// expect: ok
// category: resource
// value: "done"
// timeout: 5s
// source: original
for (let i = 0; i < 100000; i++) { console.error("e" + i); console.warn({ i }); console.info([i]); }
return "done";

// expect: ok
// category: resource
// value: "done"
// timeout: 5s
// source: tests/testdata/log_flood.js (Warden's own)
for (let i = 0; i < 1e6; i++) console.log();
return "done";

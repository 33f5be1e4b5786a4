// expect: ok
// category: determinism
// value: [["sha256",1],["log",0],["request",2]]
// source: README contract (name and length as written)
return [sha256, console.log, host.request].map((f) => [f.name, f.length]);

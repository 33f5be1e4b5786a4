// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: tests/testdata/string_doubling.js (Warden's own)
let s = "x";
for (;;) { s += s; s.indexOf("y"); }

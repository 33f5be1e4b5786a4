// expect: ResourceError/memory
// timeout: 10s
let s = "x";
while (true) { s += s; s.indexOf("y"); }

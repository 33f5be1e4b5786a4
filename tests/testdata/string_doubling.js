// expect: ResourceError/memory
// timeout: 5s
let s = "x";
while (true) { s += s; s.indexOf("y"); }

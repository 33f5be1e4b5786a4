// expect: ResourceError/stack | ResourceError/memory
// category: resource
// timeout: 3s
// source: original (a long chain of bound functions called once)
let f = () => 1;
for (let i = 0; i < 200000; i++) f = f.bind(null);
return f();

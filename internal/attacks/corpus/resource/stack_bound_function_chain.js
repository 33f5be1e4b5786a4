// expect: ResourceError/memory
// category: resource
// timeout: 3s
// 200,000 bound functions fill the 16 MiB heap before the call.
// source: original (a long chain of bound functions called once)
let f = () => 1;
for (let i = 0; i < 200000; i++) f = f.bind(null);
return f();

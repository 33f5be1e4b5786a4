// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (Buffer.alloc of 1 GiB, which Node would allocate, is over the memory limit)
return Buffer.alloc(2 ** 30).length;

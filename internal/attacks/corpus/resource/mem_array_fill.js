// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (one large fast array)
return new Array(1e8).fill(0).length;

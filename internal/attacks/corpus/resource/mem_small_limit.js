// expect: ResourceError/memory
// category: resource
// memory: 2MiB
// timeout: 5s
// source: original (a lowered memory limit)
return "x".repeat(4 << 20).length;

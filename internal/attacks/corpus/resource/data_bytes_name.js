// expect: ResourceError/data_bytes
// category: resource
// limits: {"data_bytes": 65536}
// source: original (the budget counts request names too)
await host.request("n".repeat(100000), 1);
return "not reached";

// expect: ResourceError/data_bytes
// category: resource
// timeout: 10s
// limits: {"data_bytes": 1048576}
// source: original (answers bigger than the budget)
for (let i = 0; i < 10; i++) await host.request("size", { n: 300000 });
return "not reached";

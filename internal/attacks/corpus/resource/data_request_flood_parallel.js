// expect: ResourceError/data_requests
// category: resource
// timeout: 10s
// limits: {"data_requests": 50}
// source: original (requests issued without awaiting)
await Promise.allSettled(Array.from({ length: 100 }, (_, i) => host.request("echo", i)));
return "not reached";

// expect: ok
// category: resource
// value: 3
// limits: {"data_requests": 1000000}
// clamped: data_requests
// source: original
let n = 0;
for (let i = 0; i < 3; i++) n += await host.request("echo", 1);
return n;

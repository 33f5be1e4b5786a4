// expect: ResourceError/data_requests
// timeout: 10s
// 1001 host.request calls, each rejection caught: the 1001st (over the
// default data_requests limit of 1000) ends the execution, uncatchably.
for (let i = 0; i < 1001; i++) {
  try { await host.request("x", i); } catch (e) { /* no handler: rejected */ }
}
return "not reached";

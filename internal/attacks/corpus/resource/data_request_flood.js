// expect: ResourceError/data_requests
// category: resource
// timeout: 10s
// source: tests/testdata/host_request_flood.js (Warden's own)
for (let i = 0; i < 1001; i++) { try { await host.request("nope", i); } catch (e) {} }
return "not reached";

// expect: ResourceError/data_bytes
// category: resource
// timeout: 10s
// source: tests/testdata/host_request_bytes.js (Warden's own)
const big = "x".repeat(64 << 10);
for (let i = 0; i < 300; i++) { try { await host.request("x", big); } catch (e) {} }
return "not reached";

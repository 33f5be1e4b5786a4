// expect: ResourceError/data_bytes
// timeout: 10s
// 300 requests of 64 KiB arguments each: 19 MiB sent, over the default
// data_bytes limit of 16 MiB. Nothing past the limit is copied out of the
// sandbox, and the guest cannot catch the end.
const big = "x".repeat(64 << 10);
for (let i = 0; i < 300; i++) {
  try { await host.request("x", big); } catch (e) { /* no handler: rejected */ }
}
return "not reached";

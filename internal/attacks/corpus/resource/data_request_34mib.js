// expect: ok
// value: "rejected by the host, not the wire"
// category: resource
// source: issue 18 (one host.request argument of 34 MiB, within data_bytes, was a SandboxError: the wire's message cap was 2 x the output cap + 1 MiB)
// timeout: 20s
// limits: {"memory_bytes": 268435456, "data_bytes": 67108864}
try {
  await host.request("nope", "a".repeat(34 << 20));
} catch (e) {
  return "rejected by the host, not the wire";
}
return "answered";

// expect: ResourceError/output
// category: resource
// limits: {"output_bytes": 1073741824, "memory_bytes": 67108864}
// clamped: output_bytes
// timeout: 5s
// source: original (a limit over its cap is clamped and named, not honoured)
return "x".repeat(17 << 20);

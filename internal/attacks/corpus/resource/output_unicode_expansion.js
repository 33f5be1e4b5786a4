// expect: ResourceError/output
// category: resource
// limits: {"output_bytes": 4096}
// source: original (escapes that grow the JSON past the limit)
return "\u0001".repeat(1000);

// expect: ResourceError/output
// category: resource
// limits: {"output_bytes": 1024}
// source: original
return "x".repeat(2000);

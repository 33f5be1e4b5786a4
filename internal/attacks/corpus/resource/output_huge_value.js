// expect: ResourceError/output
// category: resource
// timeout: 5s
// source: tests/testdata/huge_output.js (Warden's own)
const row = "x".repeat(1000);
return Array.from({ length: 2000 }, (_, i) => row + i);

// expect: ResourceError/output
// timeout: 5s
const row = "x".repeat(1000);
return Array.from({ length: 2000 }, (_, i) => row + i);

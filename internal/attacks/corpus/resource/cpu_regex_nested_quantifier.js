// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: tests/testdata/catastrophic_regex.js (Warden's own), OWASP ReDoS
return /^(a+)+$/.test("a".repeat(64) + "!");

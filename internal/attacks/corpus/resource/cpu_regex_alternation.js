// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: CVE-2017-16116 class (ReDoS through alternation)
return /^(a|a)*$/.test("a".repeat(60) + "b");

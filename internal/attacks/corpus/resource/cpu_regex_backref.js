// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original (backtracking into a backreference)
return /^(a*)*\1b$/.test("a".repeat(5000));

// expect: TimeoutError
return /^(a+)+$/.test("a".repeat(64) + "!");

// expect: UserCodeError
// category: resource
// source: original (an error message past the output limit must not carry it out)
throw new Error("x".repeat(6 << 20));

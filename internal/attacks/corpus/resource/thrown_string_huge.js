// expect: UserCodeError
// category: resource
// source: original
throw "s".repeat(6 << 20);

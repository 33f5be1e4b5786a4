// expect: UserCodeError
// category: resource
// source: original
const e = new Error("m");
e.name = "N".repeat(6 << 20);
throw e;

// expect: ok
// category: leak
// value: []
// source: original (host environment variable names anywhere in reach)
const seen = [];
const text = JSON.stringify(Object.getOwnPropertyNames(globalThis)) + String(new Error("x").stack);
for (const n of ["PATH", "HOME", "WARDEN_CHILD", "TMPDIR", "GOMEMLIMIT", "PLUGIN"]) if (text.includes(n)) seen.push(n);
return seen;

// expect: ok
// category: escape
// value: {"inner":"x"}
// source: original (toJSON runs inside the sandbox at finish)
return { inner: { toJSON() { return "x"; } } };

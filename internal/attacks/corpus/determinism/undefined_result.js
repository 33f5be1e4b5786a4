// expect: ok
// category: determinism
// value: null
// source: README contract (undefined becomes null)
return undefined;

// expect: ok
// category: quickjs
// value: [false, "\ud800"]
// source: original (lone surrogates through isWellFormed and the result)
return ["a\ud800".isWellFormed(), "\ud800"];

// expect: ok
// category: escape
// value: ["undefined","undefined"]
// source: node:vm Error.captureStackTrace escapes
return [typeof Error.captureStackTrace, typeof Error.stackTraceLimit];

// expect: UserCodeError
// category: escape
// source: original (an unterminated template swallowing the wrapper's end)
return `

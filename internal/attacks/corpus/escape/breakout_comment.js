// expect: UserCodeError
// category: escape
// source: original (close the wrapper behind a comment)
return 1 })(); console.log("escaped"); (async function () { /*

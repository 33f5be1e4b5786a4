// expect: UserCodeError
// category: escape
// source: original (U+2028 ends a line comment, so the rest closes the wrapper)
return 1; //  }, (function () { globalThis.pwned = 1; })(), async function (input) {

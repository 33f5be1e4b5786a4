// expect: UserCodeError
// category: escape
// source: original
return `${1}`}; globalThis.x = 1; async function y(input) { return `

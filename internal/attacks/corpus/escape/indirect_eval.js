// expect: ok
// category: escape
// value: "undefined"
// source: original
return (0, eval)("typeof process");

// expect: UserCodeError
// category: escape
// source: original
throw Symbol("s");

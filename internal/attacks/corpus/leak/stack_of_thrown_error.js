// expect: UserCodeError
// category: leak
// source: original (the envelope's stack of an uncaught error; the runner checks its type)
function inner() { throw new Error("where am I"); }
inner();

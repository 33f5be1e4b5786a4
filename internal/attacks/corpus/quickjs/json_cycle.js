// expect: UserCodeError
// category: quickjs
// source: original (a cyclic result)
const o = {}; o.o = o;
return o;

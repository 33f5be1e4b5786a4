// expect: ok | ResourceError/stack | ResourceError/memory | UserCodeError
// value: any
// category: quickjs
// source: original (flat(Infinity) on a deep array)
let a = [1];
for (let i = 0; i < 100000; i++) a = [a];
return a.flat(Infinity).length;

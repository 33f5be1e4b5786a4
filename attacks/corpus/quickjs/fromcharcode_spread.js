// expect: ok | ResourceError/stack | ResourceError/memory | UserCodeError
// value: any
// category: quickjs
// source: original (a million arguments through spread)
const codes = new Array(1e6).fill(65);
return String.fromCharCode(...codes).length;

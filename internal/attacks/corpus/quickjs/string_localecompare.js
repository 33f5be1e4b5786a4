// expect: ok
// category: quickjs
// value: [-1,0,1]
// source: original
return ["a".localeCompare("b"), "a".localeCompare("a"), "b".localeCompare("a")];

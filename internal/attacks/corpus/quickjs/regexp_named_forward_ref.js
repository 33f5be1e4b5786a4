// expect: ok
// category: quickjs
// value: true
// source: original (a backreference to a group defined later)
return /\k<x>(?<x>a)/.test("a");

// expect: ok
// category: quickjs
// value: 3
// source: original (sloppy-mode with and direct eval)
var o = { x: 1 };
with (o) { eval("var y = x + 2"); }
return y;

// expect: ok
// category: isolation
// value: true
// source: original
Math.random = () => 0.5;
return 1;
//== next
return Math.random !== undefined && Function.prototype.toString.call(Math.random).includes("[native code]");

// expect: ok
// category: isolation
// value: 3
// source: original
Function.prototype.call = () => "forged";
Function.prototype.apply = () => "forged";
return 1;
//== next
return Math.max.apply(null, [1, 2, 3]);

// expect: ok
// category: isolation
// value: 0
// source: original
Date.prototype.getTimezoneOffset = () => -600;
return 1;
//== next
return new Date(0).getTimezoneOffset();

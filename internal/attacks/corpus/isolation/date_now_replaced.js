// expect: ok
// category: isolation
// value: true
// source: original
Date.now = () => 0;
Date.prototype.getTime = () => 0;
return 1;
//== next
return Date.now() > 1.6e12 && new Date().getTime() > 1.6e12;

// expect: ok
// category: escape
// value: 5
// source: vm2 CVE-2023-30547 (a then run by the host)
Promise.prototype.then = function () { throw new Error("host called then"); };
Object.prototype.then = undefined;
return 5;

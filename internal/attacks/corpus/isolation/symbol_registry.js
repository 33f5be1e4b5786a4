// expect: ok
// category: isolation
// value: "undefined"
// source: original (Symbol.for is per realm)
Object.prototype[Symbol.for("warden.leak")] = "secret";
return 1;
//== next
return typeof ({})[Symbol.for("warden.leak")];

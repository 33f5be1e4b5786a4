// expect: ok
// category: escape
// value: [1,2,3]
// source: original (Array.prototype index setters seen by the host's stringify)
Object.defineProperty(Array.prototype, "0", { get() { return "forged"; }, set(v) {} });
Array.prototype.toString = () => "forged";
return [1, 2, 3];

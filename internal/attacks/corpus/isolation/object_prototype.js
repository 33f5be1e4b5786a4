// expect: ok
// category: isolation
// value: [false,false]
// source: vm2#32 (pollution persisting across runs)
Object.prototype.polluted = true;
Object.defineProperty(Object.prototype, "hidden", { value: 1, enumerable: false });
return 1;
//== next
return ["polluted" in {}, "hidden" in {}];

// expect: UserCodeError
// category: quickjs
// source: original (a getter that throws in the middle of a clone, after a Map and an array were begun)
const m = new Map([[1, [1, 2, { get x() { throw new RangeError("getter"); } }]]]);
return structuredClone({ m, after: 1 });

// expect: ok
// category: determinism
// value: "done"
// logs: ["1 a true null undefined","{\"a\":[1,2]}","[1,2,3]"]
// source: original (what console writes is the same on every machine)
console.log(1, "a", true, null, undefined);
console.log({ a: [1, 2] });
console.log([1, 2, 3]);
return "done";

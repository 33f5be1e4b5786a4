// expect: ok
// category: isolation
// value: [1,2,3]
// source: original
Array.prototype.map = () => "forged";
Array.prototype.push = () => { throw new Error("forged"); };
return 1;
//== next
const a = []; a.push(1, 2, 3);
return a.map((x) => x);

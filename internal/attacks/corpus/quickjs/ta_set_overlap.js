// expect: ok
// category: quickjs
// value: [1,1,2,3]
// source: original (TypedArray.prototype.set with overlapping buffers)
const ab = new ArrayBuffer(16);
const a = new Uint8Array(ab, 0, 4); a.set([1, 2, 3, 4]);
const b = new Uint8Array(ab, 1, 4);
b.set(a.subarray(0, 3));
return Array.from(new Uint8Array(ab, 0, 4));

// expect: ok
// category: quickjs
// value: "RangeError"
// source: QuickJS-NG issue class (typed array length past the heap)
try { new Uint8Array(2 ** 53); return "allocated"; } catch (e) { return e.name; }

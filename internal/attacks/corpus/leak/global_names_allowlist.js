// expect: ok
// category: leak
// value: []
// source: original (every global beyond ECMAScript and the three curated ones)
const allowed = new Set(["AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "BigInt", "BigInt64Array", "BigUint64Array",
  "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array",
  "Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Iterator", "JSON", "Map", "Math", "NaN",
  "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer",
  "String", "SuppressedError", "Symbol", "SyntaxError", "TypeError", "URIError", "Uint16Array",
  "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet", "console", "decodeURI",
  "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "host", "isFinite", "isNaN",
  "parseFloat", "parseInt", "sha256", "undefined", "unescape",
  "URL", "URLSearchParams"]);
return Object.getOwnPropertyNames(globalThis).filter((n) => !allowed.has(n));

// expect: ok
// category: leak
// value: []
// source: original (every global beyond ECMAScript, the three curated ones and the web platform's)
// The web platform's globals, one per line (README, "The contract").
const web = [
  "DOMException",
  "setTimeout",
  "setInterval",
  "clearTimeout",
  "clearInterval",
  "Event",
  "EventTarget",
  "AbortController",
  "AbortSignal",
  "structuredClone",
  "queueMicrotask",
  "performance",
  "crypto",
  "Crypto",
  "CryptoKey",
  "SubtleCrypto",
  "URL",
  "URLSearchParams",
  "TextEncoder",
  "TextDecoder",
  "atob",
  "btoa",
  "Buffer",
  "Intl",
];
const allowed = new Set([...web, "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "BigInt", "BigInt64Array", "BigUint64Array",
  "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array",
  "Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Iterator", "JSON", "Map", "Math", "NaN",
  "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer",
  "String", "SuppressedError", "Symbol", "SyntaxError", "TypeError", "URIError", "Uint16Array",
  "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet", "console", "decodeURI",
  "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "host", "isFinite", "isNaN",
  "parseFloat", "parseInt", "sha256", "undefined", "unescape"]);
return Object.getOwnPropertyNames(globalThis).filter((n) => !allowed.has(n));

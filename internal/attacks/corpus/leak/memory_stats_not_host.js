// expect: ok
// category: leak
// value: "undefined"
// source: original (no memory or process introspection)
return typeof globalThis.gc + typeof globalThis.os === "undefinedundefined" ? "undefined" : "found";

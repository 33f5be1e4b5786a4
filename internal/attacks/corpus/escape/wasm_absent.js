// expect: ok
// category: escape
// value: "undefined"
// source: original (WebAssembly would be an ambient compiler)
return typeof WebAssembly;

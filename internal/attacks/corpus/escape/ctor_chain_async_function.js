// expect: ok
// category: escape
// value: "undefined"
// source: node:vm escape write-ups (AsyncFunction constructor)
const AsyncFunction = (async () => {}).constructor;
return await AsyncFunction("return typeof process")();

// expect: ok
// value: ["not loaded", "not loaded", "not loaded", "not loaded", "m"]
// category: escape
// source: original (issue 18: the loader read specifiers as C strings, so import("m\0zzz") loaded m)
const tryImport = async (s) => {
  try {
    return (await import(s)).default;
  } catch (e) {
    return "not loaded";
  }
};
return [
  await tryImport("m\0zzz"),
  await tryImport("m\0"),
  await tryImport("m\u0000\u4e2d"),
  await tryImport("m\x7f"),
  await tryImport("m"),
];
//== module m
export default "m";

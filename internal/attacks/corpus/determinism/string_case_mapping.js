// expect: ok
// category: determinism
// value: ["STRASSE","i̇","ǅ"]
// source: original (Unicode case tables)
return ["straße".toUpperCase(), "İ".toLowerCase(), "ǆ".at(0).toUpperCase() === "Ǆ" ? "ǅ" : "?"];

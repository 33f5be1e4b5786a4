// expect: ok
// category: quickjs
// value: ["\u00c5","A\u030a"]
// source: original (Unicode normalization tables)
return ["A\u030a".normalize("NFC"), "\u00c5".normalize("NFD")];

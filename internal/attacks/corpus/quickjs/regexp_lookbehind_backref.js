// expect: ok
// category: quickjs
// value: ["bc"]
// source: QuickJS-NG regexp lookbehind reports
return "abc".match(/(?<=(a))bc/).slice(0, 1);

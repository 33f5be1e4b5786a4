// expect: ok
// category: quickjs
// value: ["\ud800", {"a": ["x\udc00y"]}, "\ud83d\ude00", "\udfff"]
// source: original (issue 18: JSON.rawJSON put WTF-8 bytes ED A0 80 in the envelope's value)
const echoed = await host.request("echo", JSON.rawJSON('"\udfff"'));
return [
  JSON.rawJSON('"\ud800"'),
  { a: [JSON.rawJSON('"x\udc00y"')] },
  JSON.rawJSON('"\ud83d\ude00"'),
  echoed,
];

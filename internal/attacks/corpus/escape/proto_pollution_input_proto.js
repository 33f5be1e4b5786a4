// expect: ok
// category: escape
// value: [false, true]
// input: {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}
// source: CVE-2019-10744 (lodash defaultsDeep __proto__ in JSON)
return [({}).polluted === true, Object.hasOwn(input, "__proto__")];

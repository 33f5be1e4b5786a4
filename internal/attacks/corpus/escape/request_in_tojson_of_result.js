// expect: ok
// category: escape
// value: {"p":{}}
// source: original (a data request started while the result is stringified)
return { p: { toJSON() { return host.request("echo", 1); } } };

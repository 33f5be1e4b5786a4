// expect: ResourceError/stack
// category: quickjs
// source: original
return JSON.parse('{"a":'.repeat(200000) + "1" + "}".repeat(200000));

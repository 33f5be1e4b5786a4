// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (compiled regexps kept)
const keep = [];
for (let i = 0; ; i++) keep.push(new RegExp("(a|b)" + i + "x".repeat(1000)));

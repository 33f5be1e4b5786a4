// expect: ResourceError/memory
// category: resource
// timeout: 5s
// known: the regexp compiler reports its out-of-memory as a catchable SyntaxError("out of memory"), so the envelope says UserCodeError (the heap limit still holds); making it uncatchable needs a change in the QuickJS build
// source: original (compiled regexps kept)
const keep = [];
for (let i = 0; ; i++) keep.push(new RegExp("(a|b)" + i + "x".repeat(1000)));

// expect: ok
// category: escape
// value: {}
// source: original (an async iterator as the result)
return (async function* () { for (;;) yield 1; })();

// expect: TimeoutError
// category: resource
// timeout: 300ms
// source: original
async function* g() { for (;;) yield; }
for await (const _ of g()) {}

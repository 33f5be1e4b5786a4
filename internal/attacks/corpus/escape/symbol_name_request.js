// expect: ok
// category: escape
// value: "TypeError"
// source: original (a non-string name for host.request)
try { await host.request(Symbol("x"), 1); return "sent"; } catch (e) { return e.name; }

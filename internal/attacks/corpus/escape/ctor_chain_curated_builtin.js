// expect: ok
// category: escape
// value: {"sha":"undefined","log":"undefined","req":"undefined"}
// source: isolated-vm#258 (reaching the host through a host-provided function)
const probe = (f) => { try { return f.constructor.constructor("return typeof process")(); } catch (e) { return "threw"; } };
return { sha: probe(sha256), log: probe(console.log), req: probe(host.request) };

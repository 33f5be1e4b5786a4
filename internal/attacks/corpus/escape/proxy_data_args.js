// expect: ok
// category: escape
// value: "refused"
// source: original (Proxy arguments to host.request)
try {
  await host.request("echo", new Proxy({}, { get() { return host.request("echo", 1); } }));
  return "allowed";
} catch (e) { return "refused"; }

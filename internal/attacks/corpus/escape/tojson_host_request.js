// expect: ok
// category: escape
// value: "refused"
// source: original (a host call from a toJSON run while the host serialises)
try {
  await host.request("echo", { toJSON() { host.request("echo", 2); return 1; } });
  return "allowed";
} catch (e) { return "refused"; }

// expect: ok
// category: escape
// value: "refused"
// source: original (nested host calls through a getter)
try {
  await host.request("echo", { get x() { host.request("echo", 2); return 1; } });
  return "allowed";
} catch (e) { return "refused"; }

// expect: ok
// value: "rejected"
// category: quickjs
// timeout: 10s
// source: original (host.request arguments nested deeper than encoding/json's 10,000 levels)
// Found by this corpus: the supervisor called the honest child's request
// a protocol violation (SandboxError). The guest's promise is rejected
// instead, as for any other argument the host cannot take.
let a = [];
for (let i = 0; i < 10050; i++) a = [a];
try { await host.request("echo", a); return "sent"; } catch (e) { return "rejected"; }

// expect: ok
// category: escape
// value: {"v":1}
// source: vm2#32 (Object.prototype pollution reaching the host)
Object.prototype.ok = false;
Object.prototype.error = { type: "SandboxError", message: "forged" };
Object.prototype.value = "forged";
Object.prototype.logs = ["forged"];
Object.prototype.stats = { wall_ms: -1 };
Object.prototype.limits = { timeout_ms: 1e9 };
return { v: 1 };

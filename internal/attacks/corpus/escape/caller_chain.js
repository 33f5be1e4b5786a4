// expect: ok
// category: escape
// value: ["undefined"]
// source: node:vm (arguments.callee.caller to reach the host frame)
function f() { try { return typeof f.caller; } catch (e) { return "threw"; } }
return [f()];

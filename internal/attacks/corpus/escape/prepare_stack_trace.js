// expect: ok
// category: escape
// value: false
// source: vm2 CVE-2023-29199 (Error.prepareStackTrace)
let ran = false;
Error.prepareStackTrace = () => { ran = true; return "x"; };
try { null.x; } catch (e) { void e.stack; }
try { sha256(1); } catch (e) { void e.stack; }
try { await host.request("fail"); } catch (e) { void e.stack; }
return ran;

// expect: ok
// category: leak
// value: []
// source: vm2 stack-trace path disclosure reports (host paths in error stacks)
const stacks = [];
try { null.x; } catch (e) { stacks.push(e.stack); }
try { JSON.parse("{"); } catch (e) { stacks.push(e.stack); }
try { sha256(1); } catch (e) { stacks.push(e.stack); }
try { await host.request("fail"); } catch (e) { stacks.push(String(e.stack), e.message); }
try { await import("missing"); } catch (e) { stacks.push(String(e.stack), e.message); }
try { eval("}"); } catch (e) { stacks.push(e.stack); }
const bad = /\/(work|home|tmp|root|usr|var|proc|etc|opt|dev)\/|\.go:|\.c:\d|wazero|quickjs\.c/i;
return stacks.filter((s) => bad.test(String(s)));

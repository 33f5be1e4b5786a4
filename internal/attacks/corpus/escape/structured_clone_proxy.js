// expect: ok
// category: escape
// value: [{"a":1},"TypeError",false]
// source: original (a Proxy handed to structuredClone lies about its prototype; a revoked one)
// A Proxy cannot be told from its target in JavaScript: it clones as the
// object its traps present, and a prototype it claims makes no Map of it.
const lying = new Proxy({ a: 1 }, { getPrototypeOf() { return Map.prototype; } });
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
let revoked;
try { structuredClone(proxy); } catch (e) { revoked = e.name; }
const c = structuredClone(lying);
return [c, revoked, c instanceof Map];

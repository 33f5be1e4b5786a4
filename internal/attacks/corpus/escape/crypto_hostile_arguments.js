// expect: ok
// value: ["RangeError from name","TypeError","TypeError","TypeError","RangeError from hash","RangeError from kty","TypeError","TypeError","RangeError proxy name","TypeError","RangeError from iterator",true]
// category: escape
// source: original (crypto.subtle given getters that throw, Proxies, objects posing as keys and buffers: every call rejects with the guest's own error or a TypeError, none reaches the host functions)
const s = crypto.subtle;
const u = new Uint8Array(8);
const thrower = (what) => ({ get() { throw new RangeError(what); } });
const key = await s.importKey("raw", u, { name: "HMAC", hash: "SHA-256" }, true, ["sign", "verify"]);
const trap = new Proxy({}, { get(t, p) { throw new RangeError("proxy " + String(p)); } });
const cases = [
  () => s.digest(Object.defineProperty({}, "name", thrower("from name")), u),
  () => s.digest("SHA-256", new Proxy(u, {})),
  () => s.sign("HMAC", Object.create(CryptoKey.prototype), u),
  () => s.sign("HMAC", new Proxy(key, {}), u),
  () => s.importKey("raw", u, Object.defineProperty({ name: "HMAC" }, "hash", thrower("from hash")), true, ["sign"]),
  () => s.importKey("jwk", Object.defineProperty({}, "kty", thrower("from kty")), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]),
  () => s.verify("HMAC", key, { byteLength: 32 }, u),
  () => s.exportKey("raw", trap),
  () => s.digest(trap, u),
  () => Reflect.apply(s.digest, trap, ["SHA-256", u]),
  () => s.importKey("raw", u, { name: "HMAC", hash: "SHA-256" }, true, { [Symbol.iterator]() { throw new RangeError("from iterator"); } }),
];
const out = [];
for (const f of cases) {
  try {
    await f();
    out.push("resolved");
  } catch (e) {
    out.push(e instanceof RangeError ? "RangeError " + e.message : e.name);
  }
}
// The key still works, and nothing the guest did reached it.
const sig = await s.sign("HMAC", key, u);
out.push(await s.verify("HMAC", key, sig, u));
return out;

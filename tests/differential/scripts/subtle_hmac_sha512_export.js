// HMAC with SHA-512 and SHA-1, a JWK import and export, and the
// errors for wrong usage.
const enc = new TextEncoder();
const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");
const k512 = await crypto.subtle.importKey("raw", enc.encode("key"), { name: "HMAC", hash: "SHA-512" }, true, ["sign"]);
const k1 = await crypto.subtle.importKey("raw", enc.encode("key"), { name: "HMAC", hash: { name: "SHA-1" } }, true, ["sign"]);
const jwk = await crypto.subtle.exportKey("jwk", k1);
const raw = hex(await crypto.subtle.exportKey("raw", k512));
const fromJwk = await crypto.subtle.importKey("jwk", jwk, { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
const msg = enc.encode("The quick brown fox jumps over the lazy dog");
const verifyOnly = await crypto.subtle.importKey("raw", enc.encode("k"), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
return {
  sha512: hex(await crypto.subtle.sign("HMAC", k512, msg)).slice(0, 40),
  sha1: hex(await crypto.subtle.sign("HMAC", k1, msg)),
  sameViaJwk: hex(await crypto.subtle.sign("HMAC", fromJwk, msg)) === hex(await crypto.subtle.sign("HMAC", k1, msg)),
  jwk: { kty: jwk.kty, alg: jwk.alg, k: jwk.k, ext: jwk.ext, key_ops: jwk.key_ops },
  raw,
  wrongUsage: await crypto.subtle.sign("HMAC", verifyOnly, msg).then(() => "no error", (e) => e.name),
  // Node 20 names this DOMException "InvalidAccessException" (WebCrypto says
  // InvalidAccessError): only the kind is compared.
  notExtractable: await crypto.subtle.exportKey("raw", fromJwk).then(() => "no error", (e) => e instanceof DOMException && e.name.startsWith("InvalidAccess")),
};

// Decode a JWT's header and payload (base64url), check expiry against a
// fixed time, without verifying the signature.
const b64urlDecode = (s) => {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(s.length / 4) * 4, "=");
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
};
const b64urlEncode = (obj) => btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(obj)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const token = [b64urlEncode({ alg: "HS256", typ: "JWT" }), b64urlEncode({ sub: "user-1", name: "Zoë ✓", exp: 1700000000, scope: "read write" }), "c2lnbmF0dXJl"].join(".");
const [h, p] = token.split(".");
const header = JSON.parse(b64urlDecode(h));
const payload = JSON.parse(b64urlDecode(p));
const now = input.now;
return { token, header, payload, expired: payload.exp < now, expiresIn: payload.exp - now, scopes: payload.scope.split(" ") };

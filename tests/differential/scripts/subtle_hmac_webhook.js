// Verify a webhook's HMAC-SHA256 signature (hex and base64), as a
// workflow node receiving Stripe- or GitHub-style webhooks does.
const enc = new TextEncoder();
const key = await crypto.subtle.importKey("raw", enc.encode(input.secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
const sign = async (msg) => new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(msg)));
const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
const payload = `${input.timestamp}.${JSON.stringify(input.body)}`;
const sig = await sign(payload);
const expected = `t=${input.timestamp},v1=${hex(sig)}`;
const fromHex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)));
const ok = await crypto.subtle.verify("HMAC", key, fromHex(hex(sig)), enc.encode(payload));
const tampered = await crypto.subtle.verify("HMAC", key, sig, enc.encode(payload + " "));
return {
  header: expected,
  base64: btoa(String.fromCharCode(...sig)),
  ok, tampered,
  keyInfo: [key.type, key.algorithm.name, key.algorithm.hash.name, key.algorithm.length, key.extractable, key.usages],
};

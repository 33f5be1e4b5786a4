// expect: ok
// value: [true,false,64,10485760]
// category: resource
// source: original (a 10 MiB HMAC key: the host hashes it where it lies in guest memory, holding one block of it; the guest's copies count against its memory limit)
// timeout: 30s
// memory: 96MiB
const raw = new Uint8Array(10 << 20);
for (let i = 0; i < raw.length; i += 4096) raw[i] = i >> 12;
const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-512" }, true, ["sign", "verify"]);
const data = new Uint8Array([1, 2, 3]);
const sig = await crypto.subtle.sign("HMAC", key, data);
const other = new Uint8Array(sig.slice(0));
other[63] ^= 0x80;
return [await crypto.subtle.verify("HMAC", key, sig, data), await crypto.subtle.verify("HMAC", key, other, data),
  sig.byteLength, key.algorithm.length / 8];

// expect: ResourceError/memory
// category: resource
// source: original (a 10 MiB HMAC key under the default 16 MiB limit: the key's copy and its string for the host do not fit, and the limit, not the host, ends it)
// timeout: 30s
const raw = new Uint8Array(10 << 20);
const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
return (await crypto.subtle.sign("HMAC", key, raw)).byteLength;

// expect: ok
// value: [32,64]
// category: resource
// source: original (a digest of 16 MiB with room for it: the host reads the bytes in place)
// timeout: 30s
// memory: 96MiB
const data = new Uint8Array(16 << 20);
for (let i = 0; i < data.length; i += 997) data[i] = 0x80 | i;
return [(await crypto.subtle.digest("SHA-256", data)).byteLength, (await crypto.subtle.digest("SHA-512", data)).byteLength];

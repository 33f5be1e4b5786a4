// expect: ResourceError/memory
// category: resource
// source: original (a digest of 16 MiB near the memory cap: the string the bytes cross to the host in is the guest's, and the limit ends it cleanly)
// timeout: 30s
// memory: 40MiB
const data = new Uint8Array(16 << 20);
for (let i = 0; i < data.length; i += 997) data[i] = 0x80 | i;
return new Uint8Array(await crypto.subtle.digest("SHA-256", data)).length;

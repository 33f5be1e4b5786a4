// expect: ResourceError/memory
// category: resource
// timeout: 10s
// source: original (btoa of an 8 MiB string: the base64 text, a third longer, does not fit next to it under the default 16 MiB limit)
return btoa("a".repeat(8 << 20)).length;

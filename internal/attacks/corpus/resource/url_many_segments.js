// expect: ok | ResourceError/memory | TimeoutError
// category: resource
// timeout: 5s
// value: [1048585, 524290]
// source: original (a 1 MiB URL of 2^19 one-letter path segments: the path list alone is about the default 16 MiB, so the memory limit may end it, or the deadline on a loaded machine; never a crash)
const u = new URL("http://h/" + "a/".repeat(1 << 19));
return [u.href.length, u.pathname.split("/").length];

// expect: ok | TimeoutError
// category: resource
// timeout: 5s
// value: [1048585, 1025, "/aaaa"]
// source: original (a 1 MiB URL: 1,024 path segments of 1 KiB, parsed in linear time; on a loaded machine the interpreter may reach the deadline first, never a crash or the memory limit)
const u = new URL("http://h/" + ("a".repeat(1023) + "/").repeat(1024));
return [u.href.length, u.pathname.split("/").length - 1, u.pathname.slice(0, 5)];

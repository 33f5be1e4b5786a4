// expect: ok | TimeoutError
// category: resource
// timeout: 5s
// value: [1048576, 1048586, 1048576]
// source: original (a 1 MiB query and a 1 MiB host, each parsed in linear time: on a loaded machine the interpreter may reach the deadline first, never a crash or the memory limit)
const q = new URL("http://h/?" + "q".repeat(1 << 20));
const h = new URL("http://" + "b".repeat((1 << 20) - 2) + ".c/");
return [q.search.length - 1, q.href.length, h.hostname.length];

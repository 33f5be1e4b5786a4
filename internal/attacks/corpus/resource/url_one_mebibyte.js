// expect: ok
// category: resource
// timeout: 5s
// value: [1048585, 1048576, 1048586, true]
// source: original (a 1 MiB URL: path, query and host each parsed in linear time, within the default limits)
const path = "a/".repeat(1 << 19);
const u = new URL("http://h/" + path);
const q = new URL("http://h/?" + "q".repeat(1 << 20));
const h = new URL("http://" + "b".repeat(1 << 20 - 2) + ".c/");
return [u.href.length, q.search.length - 1, q.href.length, h.hostname.length === (1 << 20 - 2) + 2];

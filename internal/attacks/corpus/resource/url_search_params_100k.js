// expect: ok | TimeoutError
// category: resource
// timeout: 5s
// memory: 64MiB
// value: [100000, "k0", "k99999", 1277780, true]
// source: original (100,000 query parameters (about 16 MiB of strings and lists, so 64 MiB here) parsed, sorted (n log n) and serialised in linear time: on a loaded machine the interpreter may reach the deadline first, never a crash or the memory limit)
const parts = [];
for (let i = 0; i < 100000; i++) parts.push("k" + (99999 - i) + "=" + i);
const u = new URL("http://h/?" + parts.join("&"));
const p = u.searchParams;
p.sort();
const keys = [...p.keys()];
return [p.size, keys[0], keys[keys.length - 1], u.search.length, p.get("k5") === String(99994)];

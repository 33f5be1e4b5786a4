// expect: ok
// category: leak
// value: true
// source: original (a busy loop cannot see sub-millisecond steps)
const seen = new Set();
const end = Date.now() + 20;
while (Date.now() < end) seen.add(Date.now() % 1);
return seen.size === 1 && seen.has(0);

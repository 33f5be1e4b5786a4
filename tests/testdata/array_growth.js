// expect: ResourceError/memory
// timeout: 10s
const a = [];
while (true) a.push({ n: a.length, s: "item" + a.length });

// expect: ResourceError/memory
// timeout: 5s
const a = [];
while (true) a.push({ n: a.length, s: "item" + a.length });

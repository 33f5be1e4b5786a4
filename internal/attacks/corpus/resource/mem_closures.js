// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original
const fs = [];
for (let i = 0; ; i++) fs.push(() => i);

// expect: ResourceError/memory
// category: resource
// timeout: 5s
// source: original (a dictionary-mode object growing)
const o = {};
for (let i = 0; ; i++) o["k" + i] = i;

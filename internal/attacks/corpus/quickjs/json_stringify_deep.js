// expect: TimeoutError
// category: quickjs
// timeout: 500ms
// source: ARCHITECTURE.md known behaviour (quadratic cycle check)
let o = {};
for (let i = 0; i < 100000; i++) o = { o };
return JSON.stringify(o).length;

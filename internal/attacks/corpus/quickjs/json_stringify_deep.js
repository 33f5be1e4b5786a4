// expect: TimeoutError
// category: quickjs
// timeout: 500ms
// source: docs/engine.md, "Known engine behaviour" (quadratic cycle check)
let o = {};
for (let i = 0; i < 100000; i++) o = { o };
return JSON.stringify(o).length;

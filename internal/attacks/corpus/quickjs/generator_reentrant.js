// expect: ok
// category: quickjs
// value: "TypeError"
// source: original (resuming a running generator)
let it;
function* g() { try { it.next(); } catch (e) { yield e.name; } }
it = g();
return it.next().value;

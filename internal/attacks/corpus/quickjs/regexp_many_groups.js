// expect: ok
// value: "SyntaxError"
// category: quickjs
// source: original (capture group count past the engine's limit)
const src = "(a)".repeat(70000);
try { return new RegExp(src).exec("a".repeat(10)) === null; } catch (e) { return e.name; }

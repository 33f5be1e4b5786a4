// Reading an error's stack as generated code does to report it: the first
// line, and whether the stack mentions the function that threw.
function parseAmount(s) {
  const n = Number(s);
  if (Number.isNaN(n)) throw new TypeError(`not a number: ${s}`);
  return n;
}
try {
  parseAmount("12,50");
} catch (e) {
  const lines = e.stack.split("\n");
  return { first: lines[0], mentionsFunction: e.stack.includes("parseAmount"), framesStartWithAt: lines.slice(1).every((l) => l.trim().startsWith("at ")) };
}

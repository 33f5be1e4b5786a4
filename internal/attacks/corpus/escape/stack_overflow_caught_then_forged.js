// expect: ResourceError/stack
// category: escape
// source: original (issue 18: a guest that caught one real overflow could follow it with an error of its choosing, or a value)
// The overflow is uncatchable: the catch below never runs, so neither the
// value nor the TypeError reaches the host.
function f() {
  return f() + 1;
}
try {
  f();
} catch (e) {
  console.log("caught");
  if (Math.random() < 2) throw new TypeError("not a limit");
  return "went on";
}

// expect: UserCodeError
// category: escape
// source: original (issue 18: after one caught overflow, the guest's own RangeError with the engine's text was reported as ResourceError/stack)
// A real overflow ends the execution where QuickJS throws it, so the only
// way to throw this text is without one: from deep in a recursion that
// fits, it is still the guest's own error.
function f(n) {
  if (n === 0) throw new RangeError("Maximum call stack size exceeded");
  return 1 + f(n - 1);
}
return f(1500);

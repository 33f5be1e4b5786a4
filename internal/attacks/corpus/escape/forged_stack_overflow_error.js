// expect: UserCodeError
// category: escape
// source: original (issue 18: after one caught overflow, the guest's own RangeError with the engine's text is reported as ResourceError/stack)
// known: the engine cannot tell the RangeError QuickJS throws on overflow from one the guest constructs with the same text after catching a real overflow (QuickJS gives the host no hook where it throws; child/engine/run.go, isStackOverflow)
function f() {
  return f() + 1;
}
try {
  f();
} catch (e) {}
throw new RangeError("Maximum call stack size exceeded");

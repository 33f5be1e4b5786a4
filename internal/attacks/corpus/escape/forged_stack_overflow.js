// expect: UserCodeError
// category: escape
// source: original (issue 18: after one caught overflow, a thrown object naming the stack limit was reported as ResourceError/stack)
function f() {
  return f() + 1;
}
try {
  f();
} catch (e) {}
throw { name: "InternalError", message: "stack overflow" };

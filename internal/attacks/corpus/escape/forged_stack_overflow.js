// expect: UserCodeError
// category: escape
// source: original (issue 18: after one caught overflow, a thrown object naming the stack limit was reported as ResourceError/stack)
function f(n) {
  if (n === 0) throw { name: "InternalError", message: "stack overflow" };
  return 1 + f(n - 1);
}
return f(1500);

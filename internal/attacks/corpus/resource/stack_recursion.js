// expect: ResourceError/stack
// category: resource
// source: tests/testdata/deep_recursion.js (Warden's own)
function down(n) { return down(n + 1) + 1; }
return down(0);

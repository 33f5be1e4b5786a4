// expect: ResourceError/stack
// category: resource
// limits: {"stack_bytes": 65536}
// source: original
function down(n) { return 1 + down(n + 1); }
return down(0);

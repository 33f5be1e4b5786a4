// expect: ResourceError/stack
// category: resource
// timeout: 2s
// Catching and recursing again would double the work at every level; the
// first overflow is uncatchable, so it ends the execution at once.
// source: original (catching RangeError and recursing again)
function down(n) { try { return down(n + 1); } catch (e) { return down(n + 1); } }
return down(0);

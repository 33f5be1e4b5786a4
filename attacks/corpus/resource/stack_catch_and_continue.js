// expect: ResourceError/stack | TimeoutError
// category: resource
// timeout: 2s
// source: original (catching RangeError and recursing again)
function down(n) { try { return down(n + 1); } catch (e) { return down(n + 1); } }
return down(0);

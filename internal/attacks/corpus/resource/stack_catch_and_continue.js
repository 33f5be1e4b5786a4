// expect: TimeoutError
// category: resource
// timeout: 2s
// Catching and recursing again doubles the work at every level: only the deadline ends it.
// source: original (catching RangeError and recursing again)
function down(n) { try { return down(n + 1); } catch (e) { return down(n + 1); } }
return down(0);

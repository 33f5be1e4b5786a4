// expect: ok
// category: leak
// value: []
// source: original (module errors naming host files)
const out = [];
try { await import("broken"); } catch (e) { out.push(String(e.stack) + e.message); }
return out.filter((s) => /\/(work|home|tmp|root)\/|\.go:/.test(s));
//== module broken
export const x = ;

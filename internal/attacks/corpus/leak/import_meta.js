// expect: ok
// category: leak
// value: []
// source: node:vm import.meta.url disclosure
const m = await import("meta");
return [m.url].filter((u) => u && /\/(work|home|tmp|root)\//.test(u));
//== module meta
export const url = String(import.meta && import.meta.url);

// expect: ok
// category: escape
// value: ["fulfilled","rejected","fulfilled"]
// source: original (answers and rejections interleaved)
const rs = await Promise.allSettled([host.request("echo", 1), host.request("fail", 2), host.request("size", { n: 10 })]);
return rs.map((r) => r.status);

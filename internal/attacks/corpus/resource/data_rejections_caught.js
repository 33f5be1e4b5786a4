// expect: ok
// category: resource
// value: 20
// source: original (rejections are ordinary, catchable failures)
let n = 0;
for (let i = 0; i < 20; i++) { try { await host.request("fail", i); } catch (e) { n++; } }
return n;

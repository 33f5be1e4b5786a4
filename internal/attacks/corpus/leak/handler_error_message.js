// expect: ok
// category: leak
// value: "Error"
// source: original (a handler's error reaches the guest as a plain Error)
try { await host.request("fail", 1); } catch (e) { return e.name; }

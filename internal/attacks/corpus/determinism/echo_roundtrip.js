// expect: ok
// category: determinism
// value: {"s":"héllo \u0000 \ud83d\ude00","n":1.7976931348623157e308,"neg":0,"a":[true,null,{}]}
// source: original (the data handler's JSON crosses unchanged)
return await host.request("echo", { s: "héllo \u0000 \u{1F600}", n: Number.MAX_VALUE, neg: -0, a: [true, null, {}] });

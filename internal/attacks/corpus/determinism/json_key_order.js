// expect: ok
// category: determinism
// value: "{\"1\":1,\"2\":2,\"b\":3,\"a\":4}"
// source: ECMAScript OrdinaryOwnPropertyKeys
return JSON.stringify({ b: 3, 2: 2, a: 4, 1: 1 });

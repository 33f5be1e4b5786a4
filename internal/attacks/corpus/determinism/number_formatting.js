// expect: ok
// category: determinism
// value: ["1e+21","1.23e-7","255","ff","3.14","0.1"]
// source: original
return [String(1e21), String(1.23e-7), (255).toString(), (255).toString(16), (3.14159).toFixed(2), String(0.1)];

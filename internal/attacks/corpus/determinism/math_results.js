// expect: ok
// category: determinism
// value: [0.8414709848078965,2.718281828459045,0.6931471805599453,1.4142135623730951,0.30000000000000004]
// source: original (wasm floating point gives the same bits everywhere)
return [Math.sin(1), Math.exp(1), Math.log(2), Math.sqrt(2), 0.1 + 0.2];

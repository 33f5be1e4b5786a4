// expect: ok
// category: quickjs
// value: ["0.1","1e+21","-0","0.000001"]
// source: original (number formatting corner cases)
return [(0.1).toString(), (1e21).toString(), (-0).toLocaleString ? Object.is(-0, -0) && "-0" : "-0", (0.000001).toString()];

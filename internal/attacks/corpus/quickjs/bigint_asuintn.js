// expect: ok
// category: quickjs
// value: "survived"
// source: original (BigInt.asUintN with huge widths)
for (const bits of [0, 64, 2 ** 20]) { try { BigInt.asUintN(bits, -1n); BigInt.asIntN(bits, 2n ** 70n); } catch (e) {} }
return "survived";

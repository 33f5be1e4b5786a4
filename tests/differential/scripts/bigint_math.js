// BigInt: factorials, Fibonacci, modular exponentiation and parsing
// large ids, returned as strings (JSON has no BigInt).
const fact = (n) => { let r = 1n; for (let i = 2n; i <= n; i++) r *= i; return r; };
const fib = (n) => { let [a, b] = [0n, 1n]; for (let i = 0; i < n; i++) [a, b] = [b, a + b]; return a; };
const modpow = (b, e, m) => { let r = 1n; b %= m; while (e > 0n) { if (e & 1n) r = (r * b) % m; b = (b * b) % m; e >>= 1n; } return r; };
const id = BigInt("9007199254740993");
return {
  fact30: fact(30n).toString(),
  fib100: fib(100).toString(),
  modpow: modpow(2n, 1000n, 1000000007n).toString(),
  unsafe: [String(9007199254740993), id.toString(), (id + 1n).toString(), Number.isSafeInteger(Number(id))],
  hex: (2n ** 64n - 1n).toString(16),
  asInt: [BigInt.asIntN(8, 255n).toString(), BigInt.asUintN(8, -1n).toString()],
  div: [(-7n / 2n).toString(), (-7n % 2n).toString(), (10n ** 20n / 3n).toString()],
  mixed: (() => { try { return 1n + 1; } catch (e) { return e.name; } })(),
  cmp: [1n < 2, 2n == 2, 2n === 2, typeof 1n],
};

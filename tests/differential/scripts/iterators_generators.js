// Generators as lazy pipelines: take, map, filter over an infinite
// sequence; return/throw into generators; iterator protocol by hand.
function* naturals() { let n = 1; while (true) yield n++; }
function* map(it, f) { for (const x of it) yield f(x); }
function* filter(it, p) { for (const x of it) if (p(x)) yield x; }
function* take(it, n) { if (n <= 0) return; for (const x of it) { yield x; if (--n <= 0) return; } }
const primes = take(filter(naturals(), (n) => n > 1 && [...take(naturals(), Math.floor(Math.sqrt(n)))].slice(1).every((d) => n % d)), 10);
function* echo() { const log = []; try { while (true) log.push(yield log.length); } catch (e) { yield `caught ${e}`; } finally { log.push("done"); } }
const g = echo();
const steps = [g.next(), g.next("x"), g.next("y"), g.throw("boom"), g.return(7), g.next()];
const manual = { from: 3, to: 6, [Symbol.iterator]() { let c = this.from, t = this.to; return { next: () => (c <= t ? { value: c++, done: false } : { value: undefined, done: true }) }; } };
return { primes: [...primes], squares: [...take(map(naturals(), (n) => n * n), 5)], steps, manual: [...manual], destructure: (([a, , b, ...rest]) => [a, b, rest])([1, 2, 3, 4, 5]) };

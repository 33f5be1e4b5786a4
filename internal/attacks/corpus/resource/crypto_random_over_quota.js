// expect: ok
// value: ["QuotaExceededError","The requested length exceeds 65,536 bytes",22,true,"QuotaExceededError",true]
// category: resource
// source: original (getRandomValues refuses more than 65,536 bytes before it draws any, as Node 20 does)
const big = new Uint8Array(1 << 20);
let first;
try { crypto.getRandomValues(big); } catch (e) { first = e; }
// One element over, in a wider type: the quota is in bytes.
let second;
try { crypto.getRandomValues(new Uint32Array(16385)); } catch (e) { second = e; }
return [first.name, first.message, first.code, big.every((x) => x === 0), second.name, second instanceof DOMException];

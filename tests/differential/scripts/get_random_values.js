// crypto.getRandomValues: fills in place and returns the same array;
// types it accepts and refuses; the 65536-byte limit.
const a = new Uint8Array(32);
const same = crypto.getRandomValues(a) === a;
const u32 = crypto.getRandomValues(new Uint32Array(4));
const errs = [];
for (const f of [() => crypto.getRandomValues(new Float64Array(2)), () => crypto.getRandomValues(new Uint8Array(65537))]) {
  try { f(); errs.push("no error"); } catch (e) { errs.push(e.name); }
}
const max = crypto.getRandomValues(new Uint8Array(65536)).length;
const token = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
return { same, length: a.length, u32: [u32.length, u32.every((x) => Number.isInteger(x) && x >= 0)], errs, max, tokenLength: token.length, hexOnly: /^[0-9a-f]+$/.test(token), bigint: crypto.getRandomValues(new BigUint64Array(1)).length };

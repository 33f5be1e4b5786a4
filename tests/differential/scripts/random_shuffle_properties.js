// A Fisher-Yates shuffle driven by crypto.getRandomValues: the result
// differs from run to run, so only its invariants are returned.
function shuffle(arr) {
  const a = [...arr];
  const r = new Uint32Array(a.length);
  crypto.getRandomValues(r);
  for (let i = a.length - 1; i > 0; i--) {
    const j = r[i] % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
const deck = Array.from({ length: 52 }, (_, i) => i);
const s = shuffle(deck);
const mathRandom = Array.from({ length: 100 }, Math.random);
return {
  samePeople: [...s].sort((x, y) => x - y).join() === deck.join(),
  length: s.length,
  originalUntouched: deck[51] === 51,
  mathRandomInRange: mathRandom.every((x) => x >= 0 && x < 1),
  otp: String(crypto.getRandomValues(new Uint32Array(1))[0] % 1000000).padStart(6, "0").length,
};

// Ages on a reference date, with leap-day birthdays.
function age(birth, on) {
  const b = new Date(birth + "T00:00:00Z"), o = new Date(on + "T00:00:00Z");
  let a = o.getUTCFullYear() - b.getUTCFullYear();
  const m = o.getUTCMonth() - b.getUTCMonth();
  if (m < 0 || (m === 0 && o.getUTCDate() < b.getUTCDate())) a--;
  return a;
}
const on = input.on;
return input.people.map((p) => ({ ...p, age: age(p.born, on), adult: age(p.born, on) >= 18, nextBirthdayIn: (() => {
  const b = new Date(p.born + "T00:00:00Z"), o = new Date(on + "T00:00:00Z");
  let next = new Date(Date.UTC(o.getUTCFullYear(), b.getUTCMonth(), b.getUTCDate()));
  if (next < o) next = new Date(Date.UTC(o.getUTCFullYear() + 1, b.getUTCMonth(), b.getUTCDate()));
  return Math.round((next - o) / 86400000);
})() }));

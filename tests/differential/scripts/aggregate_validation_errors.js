// Validate every record, collect failures into an AggregateError, and
// report it as a value.
function check(r) {
  const problems = [];
  if (typeof r.name !== "string" || !r.name.trim()) problems.push(new TypeError("name must be a non-empty string"));
  if (!Number.isFinite(r.qty) || r.qty < 0) problems.push(new RangeError(`qty out of range: ${r.qty}`));
  if (problems.length) throw new AggregateError(problems, `record ${r.id} invalid`);
  return r;
}
const good = [], bad = [];
for (const r of input) {
  try { good.push(check(r).id); }
  catch (e) { bad.push({ message: e.message, name: e.name, errors: e.errors.map((x) => `${x.name}: ${x.message}`) }); }
}
return { good, bad };

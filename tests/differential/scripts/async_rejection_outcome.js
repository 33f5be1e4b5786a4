// A script whose awaited promise rejects with a TypeError it made: the
// execution fails with that error.
async function validate(order) {
  await null;
  if (!Array.isArray(order.items)) throw new TypeError(`order ${order.id}: items must be an array`);
  return order.items.length;
}
const counts = [];
for (const o of input) counts.push(await validate(o));
return counts;

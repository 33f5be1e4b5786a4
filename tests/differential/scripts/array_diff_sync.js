// Compare a local list with a remote one by id: what to create, update and delete.
const local = new Map(input.local.map((x) => [x.id, x]));
const remote = new Map(input.remote.map((x) => [x.id, x]));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const plan = { create: [], update: [], delete: [], unchanged: 0 };
for (const [id, item] of local) {
  if (!remote.has(id)) plan.create.push(id);
  else if (!same(item, remote.get(id))) plan.update.push({ id, fields: Object.keys(item).filter((k) => !same(item[k], remote.get(id)[k])) });
  else plan.unchanged++;
}
for (const id of remote.keys()) if (!local.has(id)) plan.delete.push(id);
return plan;

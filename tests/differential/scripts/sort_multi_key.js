// Sort employees by department, then salary descending, then name, with
// nulls last: the comparator chain models write for "sort by X then Y".
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const nullsLast = (a, b) => (a == null ? (b == null ? 0 : 1) : b == null ? -1 : 0);
const sorted = [...input].sort((a, b) =>
  nullsLast(a.dept, b.dept) || cmp(a.dept, b.dept) || b.salary - a.salary || cmp(a.name, b.name));
return sorted.map((e) => `${e.dept ?? "-"}/${e.salary}/${e.name}`);

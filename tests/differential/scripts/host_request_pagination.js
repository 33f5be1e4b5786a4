// Walk a paginated API through host data requests until there is no next
// cursor, collecting and filtering records.
const all = [];
let cursor = "page1", calls = 0;
while (cursor) {
  const page = await host.request(cursor, { limit: 3 });
  calls++;
  all.push(...page.items);
  cursor = page.next;
}
return { calls, count: all.length, active: all.filter((x) => x.active).map((x) => x.name) };

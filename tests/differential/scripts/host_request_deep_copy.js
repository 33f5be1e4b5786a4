// Each host data request answers afresh: changing one answer does not
// change the next, and arguments are sent as JSON.
const a = await host.request("config");
a.limits.max = 999;
a.list.push("mutated");
const b = await host.request("config");
const viaThen = await host.request("config").then((c) => c.limits.max * 2);
return { a, b, viaThen, sameObject: a === b, strings: await host.request("text") };

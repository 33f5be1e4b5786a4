// Try mirrors in order with Promise.any; when all fail, the AggregateError
// lists them.
const first = await Promise.any(["mirror-a", "mirror-b", "mirror-c"].map((m) => host.request(m)));
let allFailed;
try {
  await Promise.any(["x", "y"].map((m) => host.request(m)));
} catch (e) {
  allFailed = { name: e.name, count: e.errors.length, messages: e.errors.map((x) => x.message), isAggregate: e instanceof AggregateError };
}
return { first, allFailed };

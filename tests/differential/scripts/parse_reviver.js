// JSON.parse with a reviver that turns ISO strings into Dates and
// "123n" strings into BigInts, then summarises what it built.
const text = JSON.stringify(input);
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const order = [];
const obj = JSON.parse(text, function (key, value) {
  order.push(key);
  if (typeof value === "string" && iso.test(value)) return new Date(value);
  if (typeof value === "string" && /^\d+n$/.test(value)) return BigInt(value.slice(0, -1));
  if (key === "drop") return undefined;
  return value;
});
return {
  order,
  start: obj.start instanceof Date ? obj.start.getTime() : null,
  counter: typeof obj.counter === "bigint" ? (obj.counter * 2n).toString() : null,
  dropped: "drop" in obj,
  nestedDate: obj.events.map((e) => e.at instanceof Date ? e.at.getUTCHours() : e.at),
};

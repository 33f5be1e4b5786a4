// expect: ResourceError/memory | TimeoutError
// category: resource
// memory: 8MiB
// timeout: 5s
// source: original (a Collator sorting ever more distinct strings: its sort keys are the guest's own memory and count against its limit; the host keeps none of them)
const c = new Intl.Collator("de", { sensitivity: "base" });
let words = [];
for (let round = 0; ; round++) {
  for (let i = 0; i < 20000; i++) words.push("wört" + round + "-" + i + "-" + "ä".repeat(i % 40));
  words.sort(c.compare);
}

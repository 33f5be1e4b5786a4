// Logging while working, as generated code does at every step: the logs
// go to the envelope's logs, the value is what is returned.
console.log("starting with", input.length, "records");
const valid = [];
for (const [i, r] of input.entries()) {
  if (typeof r.email !== "string" || !r.email.includes("@")) {
    console.warn(`record ${i} skipped: bad email`, r);
    continue;
  }
  console.debug("ok", { i, email: r.email });
  valid.push({ ...r, domain: r.email.split("@")[1].toLowerCase() });
}
console.info("valid:", valid.length);
console.error(new Error("not fatal, just logged"));
console.log("%s has %d items", "cart", 3, { extra: [1, 2] });
return { valid: valid.length, domains: [...new Set(valid.map((v) => v.domain))] };

// Deduplicate contacts by normalised email, keeping the most recently
// updated record and merging phone numbers.
const normalise = (email) => {
  let [local, domain] = email.trim().toLowerCase().split("@");
  if (domain === "gmail.com" || domain === "googlemail.com") {
    local = local.split("+")[0].replace(/\./g, "");
    domain = "gmail.com";
  }
  return `${local}@${domain}`;
};
const seen = new Map();
for (const c of input.contacts) {
  const key = normalise(c.email);
  const prev = seen.get(key);
  if (!prev) {
    seen.set(key, { ...c, email: key, phones: [...(c.phones || [])] });
    continue;
  }
  const newer = c.updatedAt > prev.updatedAt ? c : prev;
  const phones = [...new Set([...prev.phones, ...(c.phones || [])])];
  seen.set(key, { ...newer, email: key, phones });
}
return { count: seen.size, contacts: [...seen.values()] };

// Rename, filter and coerce the fields of API records with entries.
const rename = { first_name: "firstName", last_name: "lastName", e_mail: "email" };
const drop = new Set(["password", "internal_notes"]);
return input.map((rec) => Object.fromEntries(
  Object.entries(rec)
    .filter(([k, v]) => !drop.has(k) && v !== "" && v != null)
    .map(([k, v]) => [rename[k] ?? k, typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])
    .sort(([a], [b]) => (a < b ? -1 : 1))));

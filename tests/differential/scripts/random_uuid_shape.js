// crypto.randomUUID: only what is deterministic about the ids (format,
// version and variant digits, uniqueness), never their value.
const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
const re = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
return {
  length: ids[0].length,
  allMatch: ids.every((id) => re.test(id)),
  unique: new Set(ids).size,
  version: [...new Set(ids.map((id) => id[14]))],
  variantOk: ids.every((id) => "89ab".includes(id[19])),
  type: typeof ids[0],
  dashes: ids[0].split("-").map((p) => p.length),
};

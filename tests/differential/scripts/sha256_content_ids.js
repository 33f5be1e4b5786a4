// Content-addressed ids with Warden's sha256 global: dedupe documents by
// the hash of their normalised text, short ids, and a hash chain.
const norm = (t) => t.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
const seen = new Map();
for (const doc of input) {
  const h = sha256(norm(doc.text));
  if (!seen.has(h)) seen.set(h, { id: h.slice(0, 12), titles: [] });
  seen.get(h).titles.push(doc.title);
}
let chain = sha256("");
for (const doc of input) chain = sha256(chain + doc.title);
return { unique: [...seen.values()], chain, empty: sha256(""), unicode: sha256("caf\u00e9 😀"), lone: sha256("\ud800") === sha256("\ufffd"), loneHash: sha256("a\udc00b\ud83d") };

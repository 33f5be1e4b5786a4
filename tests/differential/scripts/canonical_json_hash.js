// Canonical JSON (sorted keys, no whitespace) hashed with Warden's
// sha256 global: the same document, differently ordered, hashes the same.
const canon = (v) => Array.isArray(v) ? `[${v.map(canon).join(",")}]`
  : v && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`
  : JSON.stringify(v);
const a = { b: 1, a: [3, { z: null, y: "é" }], c: { e: true, d: 1.5 } };
const b = { c: { d: 1.5, e: true }, a: [3, { y: "é", z: null }], b: 1 };
return { canon: canon(a), same: sha256(canon(a)) === sha256(canon(b)), hash: sha256(canon(a)), naive: sha256(JSON.stringify(a)) === sha256(JSON.stringify(b)) };

// Normalisation forms, and comparing strings typed differently.
const pairs = [["caf\u00e9", "cafe\u0301"], ["\ufb01le", "file"], ["\u212b", "\u00c5"], ["\u2460", "1"], ["Ｈｅｌｌｏ", "Hello"]];
return pairs.map(([a, b]) => ({
  a, b,
  raw: a === b,
  nfc: a.normalize("NFC") === b.normalize("NFC"),
  nfkc: a.normalize("NFKC") === b.normalize("NFKC"),
  lengths: [a.length, a.normalize("NFD").length, a.normalize("NFKD").length],
  codes: [...a.normalize("NFD")].map((c) => c.codePointAt(0).toString(16)),
}));

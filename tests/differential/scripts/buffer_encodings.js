// Buffer between encodings: utf8, base64, base64url, hex, latin1,
// utf16le, ascii; lengths and round trips.
const s = "héllo wörld 😀";
const b = Buffer.from(s, "utf8");
return {
  length: [s.length, b.length, Buffer.byteLength(s), Buffer.byteLength("aGk=", "base64")],
  base64: b.toString("base64"),
  base64url: b.toString("base64url"),
  hex: b.toString("hex"),
  latin1: Buffer.from("héllo", "latin1").toString("hex"),
  utf16le: Buffer.from("hé", "utf16le").toString("hex"),
  back: [Buffer.from(b.toString("base64"), "base64").toString(), Buffer.from("68c3a9", "hex").toString("utf8"), Buffer.from("aGk", "base64url").toString()],
  ascii: Buffer.from("héllo").toString("ascii"),
  badHex: Buffer.from("abz1", "hex").toString("hex"),
  json: Buffer.from([1, 2, 255]).toJSON(),
  str: String(Buffer.from("abc")),
  isBuffer: [Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1)), b instanceof Uint8Array],
};

// crypto.subtle.digest over text and bytes, in the hex form most code
// converts it to; compared with the sha256 global.
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const enc = new TextEncoder();
const text = "The quick brown fox jumps over the lazy dog";
const [s1, s256, s384, s512] = await Promise.all(["SHA-1", "SHA-256", "SHA-384", "SHA-512"].map((a) => crypto.subtle.digest(a, enc.encode(text))));
return {
  sha1: hex(s1), sha256: hex(s256), sha384: hex(s384).slice(0, 32), sha512: hex(s512).slice(0, 32),
  matchesGlobal: hex(s256) === sha256(text),
  lengths: [s1.byteLength, s256.byteLength, s384.byteLength, s512.byteLength],
  objectAlg: hex(await crypto.subtle.digest({ name: "sha-256" }, new Uint8Array(0))),
  fromBuffer: hex(await crypto.subtle.digest("SHA-256", enc.encode("abc").buffer)),
  type: Object.prototype.toString.call(s256),
  bad: await crypto.subtle.digest("MD5", enc.encode("x")).then(() => "no error", (e) => e.name),
};

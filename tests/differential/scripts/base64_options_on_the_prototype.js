// Options a base64 native would read from Object.prototype (toBase64's
// omitPadding and alphabet, fromBase64's lastChunkHandling) change
// nothing Buffer, TextDecoder or crypto return, and no getter runs.
let ran = 0;
for (const name of ["alphabet", "omitPadding", "lastChunkHandling"]) {
  Object.defineProperty(Object.prototype, name, { get() { ran++; return name === "alphabet" ? "base64url" : true; }, configurable: true });
}
const bytes = Uint8Array.from([0xfb, 0xff, 0x00, 0x61, 0x62]);
const out = {
  b64: Buffer.from(bytes).toString("base64"),
  back: Array.from(Buffer.from("+/8AYWI=", "base64")),
  latin1: Buffer.from(bytes).toString("latin1").length,
  decoded: new TextDecoder("latin1").decode(bytes).length,
};
const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
out.digest = Array.from(digest.slice(0, 4));
out.random = crypto.getRandomValues(new Uint8Array(5)).length;
for (const name of ["alphabet", "omitPadding", "lastChunkHandling"]) delete Object.prototype[name];
out.ran = ran;
return out;

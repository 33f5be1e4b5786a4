// Base64 with btoa/atob: ASCII, UTF-8 text through TextEncoder-free
// tricks, invalid input, and whitespace tolerance.
const utf8ToB64 = (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));
const b64ToUtf8 = (b) => new TextDecoder().decode(Uint8Array.from(atob(b), (c) => c.charCodeAt(0)));
const errors = [];
for (const f of [() => btoa("é😀"), () => atob("abc*"), () => atob("a")]) {
  try { f(); errors.push("no error"); } catch (e) { errors.push(`${e.name}:${e instanceof DOMException}`); }
}
return {
  ascii: btoa("Hello, World!"),
  back: atob("SGVsbG8sIFdvcmxkIQ=="),
  latin1: btoa("caf\u00e9"),
  utf8: utf8ToB64("café 😀"),
  roundTrip: b64ToUtf8(utf8ToB64("café 😀 日本")),
  noPad: atob("SGk"),
  spaces: atob(" SGVs bG8=\n"),
  empty: [btoa(""), atob("")],
  coerced: [btoa(123), btoa(null)],
  errors,
};

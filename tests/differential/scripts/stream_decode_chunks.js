// Decode a UTF-8 byte stream that arrives in chunks split inside
// characters (as network reads do), line by line, with TextDecoder's
// stream mode.
const bytes = new TextEncoder().encode("first line\nzweite Zeile: äöü\n第三行 😀\nlast");
const chunks = [];
for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.slice(i, i + 7));
const dec = new TextDecoder();
const lines = [];
let buf = "";
for (const c of chunks) {
  buf += dec.decode(c, { stream: true });
  let nl;
  while ((nl = buf.indexOf("\n")) >= 0) { lines.push(buf.slice(0, nl)); buf = buf.slice(nl + 1); }
}
buf += dec.decode();
if (buf) lines.push(buf);
const naive = chunks.map((c) => new TextDecoder().decode(c)).join("");
return { chunks: chunks.length, lines, naiveBroken: naive.includes("\ufffd") };

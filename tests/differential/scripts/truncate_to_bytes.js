// Truncate text to a byte budget (a database column, an SMS segment)
// without cutting a character, using TextEncoder and Buffer.
const enc = new TextEncoder(), dec = new TextDecoder();
function truncateBytes(s, max) {
  const bytes = enc.encode(s);
  if (bytes.length <= max) return s;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return dec.decode(bytes.subarray(0, end));
}
const samples = ["plain ascii text here", "naïve café crème", "😀😁😂🤣😃", "日本語のテキスト"];
return samples.map((s) => {
  const t = truncateBytes(s, 10);
  return { s, bytes: Buffer.byteLength(s), t, tBytes: enc.encode(t).length, bufferCut: Buffer.from(s).subarray(0, 10).toString() };
});

// UTF-8 by hand (code points to bytes), checked against TextEncoder, and
// the classic unescape(encodeURIComponent()) trick.
function utf8(str) {
  const out = [];
  for (const ch of str) {
    let cp = ch.codePointAt(0);
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}
const samples = ["A", "ß", "€", "𝄞", "mixed: ä€𝄞", "lone \udc00 x"];
return samples.map((s) => ({ s, bytes: utf8(s).length, same: JSON.stringify(utf8(s)) === JSON.stringify([...new TextEncoder().encode(s)]), trick: s.includes("\udc00") ? null : unescape(encodeURIComponent(s)).length }));

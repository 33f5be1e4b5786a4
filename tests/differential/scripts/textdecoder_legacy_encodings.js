// TextDecoder for the encodings other than UTF-8 that files come in:
// UTF-16 (both byte orders, with a BOM), latin1 (which is windows-1252).
const b = (a) => new Uint8Array(a);
return {
  utf16le: new TextDecoder("utf-16le").decode(b([0x68, 0, 0xe9, 0, 0x3d, 0xd8, 0x00, 0xde])),
  utf16be: new TextDecoder("utf-16be").decode(b([0, 0x68, 0, 0xe9])),
  utf16bom: new TextDecoder("utf-16").decode(b([0xff, 0xfe, 0x41, 0])),
  latin1: new TextDecoder("latin1").decode(b([0x63, 0x61, 0x66, 0xe9, 0x80, 0x9f])),
  labels: ["latin1", "iso-8859-1", "ascii", "utf-16", "UTF-16LE", "windows-1252"].map((l) => new TextDecoder(l).encoding),
};

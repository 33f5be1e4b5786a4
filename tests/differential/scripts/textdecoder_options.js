// TextDecoder on UTF-8: BOM handling, invalid sequences replaced or
// fatal, streaming across chunk boundaries, labels.
const bytes = (a) => new Uint8Array(a);
const euro = [0xe2, 0x82, 0xac];
const out = {};
out.plain = new TextDecoder().decode(bytes([0xef, 0xbb, 0xbf, 0x68, 0x69]));
out.keepBom = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes([0xef, 0xbb, 0xbf, 0x68])).length;
out.invalid = new TextDecoder().decode(bytes([0x61, 0xff, 0x62, 0xc3]));
try { new TextDecoder("utf-8", { fatal: true }).decode(bytes([0xff])); out.fatal = "no error"; } catch (e) { out.fatal = e.name; }
const stream = new TextDecoder();
out.stream = stream.decode(bytes([0x61, euro[0]]), { stream: true }) + "|" + stream.decode(bytes(euro.slice(1)), { stream: true }) + "|" + stream.decode();
try { new TextDecoder("klingon"); out.badLabel = "no error"; } catch (e) { out.badLabel = e.name; }
out.labels = ["utf8", "UTF-8", " unicode-1-1-utf-8 ", "Utf-8"].map((l) => new TextDecoder(l).encoding);
out.dataView = new TextDecoder().decode(new DataView(bytes([0x6f, 0x6b]).buffer));
return out;

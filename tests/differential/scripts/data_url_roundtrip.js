// Build data: URLs for small files (base64 through Buffer and through
// btoa), and parse them back with URL.
const files = [{ name: "pixel.gif", type: "image/gif", bytes: [71, 73, 70, 56, 57, 97, 1, 0, 1, 0, 128, 0, 0, 255, 255, 255, 0, 0, 0, 33, 249, 4, 0] }, { name: "note.txt", type: "text/plain;charset=utf-8", text: "héllo, wörld" }];
return files.map((f) => {
  const buf = f.bytes ? Buffer.from(f.bytes) : Buffer.from(f.text, "utf8");
  const viaBuffer = `data:${f.type};base64,${buf.toString("base64")}`;
  const viaBtoa = `data:${f.type};base64,${btoa(String.fromCharCode(...buf))}`;
  const u = new URL(viaBuffer);
  const [meta, data] = u.pathname.split(",");
  const decoded = Buffer.from(data, "base64");
  return { name: f.name, same: viaBuffer === viaBtoa, protocol: u.protocol, meta, size: decoded.length, text: f.text ? decoded.toString("utf8") : null, prefix: viaBuffer.slice(0, 40) };
});

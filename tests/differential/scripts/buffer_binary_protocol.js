// Build and read a binary record with Buffer's write/read methods
// (big- and little-endian), concat, slice, compare, fill, indexOf.
const header = Buffer.alloc(12);
header.writeUInt32BE(0xcafebabe, 0);
header.writeUInt16LE(513, 4);
header.writeInt16BE(-2, 6);
header.writeFloatBE(1.5, 8);
const body = Buffer.from("payload", "utf8");
const len = Buffer.alloc(4);
len.writeUInt32LE(body.length);
const frame = Buffer.concat([header, len, body]);
return {
  hex: frame.toString("hex"),
  magic: frame.readUInt32BE(0).toString(16),
  u16: frame.readUInt16LE(4),
  i16: frame.readInt16BE(6),
  f32: frame.readFloatBE(8),
  bodyLen: frame.readUInt32LE(12),
  body: frame.subarray(16).toString(),
  slice: frame.slice(16, 19).toString(),
  indexOf: [frame.indexOf("load"), frame.indexOf(0xbe), frame.includes("pay")],
  compare: [Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer.from("x").equals(Buffer.from("x"))],
  fill: Buffer.alloc(5).fill("ab").toString(),
  bigint: (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(2n ** 63n + 5n); return [b.toString("hex"), b.readBigUInt64BE().toString()]; })(),
  range: (() => { try { header.readUInt32BE(10); return "no error"; } catch (e) { return [e.name, e.code]; } })(),
};

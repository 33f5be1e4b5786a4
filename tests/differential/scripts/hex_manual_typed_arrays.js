// Hex encoding by hand over Uint8Array, and DataView parsing of a binary
// header: no Buffer, only ECMAScript.
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
const bytes = fromHex("89504e470d0a1a0a0000000d4948445200000100000000800806000000");
const dv = new DataView(bytes.buffer);
const u32 = new Uint32Array([1, 0xdeadbeef]);
return {
  signature: toHex(bytes.subarray(0, 8)),
  chunkLen: dv.getUint32(8),
  chunkType: String.fromCharCode(...bytes.subarray(12, 16)),
  width: dv.getUint32(16), height: dv.getUint32(20),
  bitDepth: dv.getUint8(24), colorType: dv.getUint8(25),
  le: toHex(new Uint8Array(u32.buffer)),
  f64: (() => { const b = new DataView(new ArrayBuffer(8)); b.setFloat64(0, Math.PI); return toHex(new Uint8Array(b.buffer)); })(),
  clamped: Array.from(new Uint8ClampedArray([300, -5, 1.5, 2.5])),
  wrapped: Array.from(new Int8Array([200, -129])),
};

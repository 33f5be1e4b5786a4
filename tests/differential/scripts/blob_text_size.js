// Byte sizes and text through Blob, as browser-side code measures a
// payload before sending it.
const parts = ["héllo ", "wörld ", new Uint8Array([0xf0, 0x9f, 0x98, 0x80])];
const blob = new Blob(parts, { type: "text/plain" });
const slice = blob.slice(0, 6);
return {
  size: blob.size,
  type: blob.type,
  text: await blob.text(),
  slice: [slice.size, await slice.text()],
  bytes: Array.from(new Uint8Array(await new Blob(["abc"]).arrayBuffer())),
  jsonSize: new Blob([JSON.stringify({ a: "ü".repeat(10) })]).size,
};

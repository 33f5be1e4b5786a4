// structuredClone with a transfer list detaches the original buffer;
// typed-array views over one buffer stay views over one buffer.
const buf = new ArrayBuffer(8);
const view = new Uint8Array(buf);
view.set([1, 2, 3, 4, 5, 6, 7, 8]);
const both = structuredClone({ a: new Uint8Array(buf, 0, 4), b: new Uint16Array(buf, 4, 2) });
const moved = structuredClone({ buf }, { transfer: [buf] });
return {
  sharedBuffer: both.a.buffer === both.b.buffer,
  views: [Array.from(both.a), Array.from(both.b)],
  detached: [buf.byteLength, view.length, moved.buf.byteLength],
  movedBytes: Array.from(new Uint8Array(moved.buf)),
};

// Every byte value through base64 three ways (btoa over a binary string,
// Buffer, and a hand-written encoder) and back.
const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
const bin = String.fromCharCode(...bytes);
const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function manual(b) {
  let out = "";
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    out += A[n >> 18] + A[(n >> 12) & 63] + (i + 1 < b.length ? A[(n >> 6) & 63] : "=") + (i + 2 < b.length ? A[n & 63] : "=");
  }
  return out;
}
const viaBtoa = btoa(bin), viaBuffer = Buffer.from(bytes).toString("base64");
const back = Uint8Array.from(atob(viaBtoa), (c) => c.charCodeAt(0));
return { same: viaBtoa === viaBuffer && viaBuffer === manual(bytes), length: viaBtoa.length, head: viaBtoa.slice(0, 24), tail: viaBtoa.slice(-8), roundTrip: back.every((b, i) => b === i) && back.length === 256 };

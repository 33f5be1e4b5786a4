// TextEncoder: UTF-8 bytes of text, encodeInto with a small buffer, and
// lone surrogates.
const enc = new TextEncoder();
const bytes = (s) => Array.from(enc.encode(s));
const target = new Uint8Array(5);
const into = enc.encodeInto("a😀bc", target);
return {
  encoding: enc.encoding,
  ascii: bytes("Hi!"),
  twoByte: bytes("é"),
  threeByte: bytes("€"),
  fourByte: bytes("😀"),
  lone: bytes("a\ud800b"),
  empty: bytes(""),
  into: [into.read, into.written, Array.from(target)],
  undef: bytes(undefined),
  type: Object.prototype.toString.call(enc.encode("x")),
};

// TextEncoder, TextDecoder, atob and btoa, as Node 20 has them. The byte
// work is done by ECMAScript's own native functions where one does it
// (Uint8Array.prototype.toBase64, Uint8Array.fromBase64, atob/btoa,
// encodeURIComponent/decodeURIComponent), so a megabyte takes
// milliseconds; JavaScript loops only handle what the natives refuse
// (invalid UTF-8, lone surrogates) and the edges of streamed chunks.
// web.bytes holds the helpers 25-buffer.js shares.
const Uint8 = Uint8Array;
const Uint16 = Uint16Array;
const ArrayBufferI = ArrayBuffer;
const DataViewI = DataView;
const RangeErrorI = RangeError;
const TypeErrorI = TypeError;
const WeakMapI = WeakMap;
const weakGet = WeakMap.prototype.get;
const weakSet = WeakMap.prototype.set;
const weakHas = WeakMap.prototype.has;
const typedProto = getPrototypeOf(Uint8Array.prototype);
const taBuffer = getOwnPropertyDescriptor(typedProto, "buffer").get;
const taOffset = getOwnPropertyDescriptor(typedProto, "byteOffset").get;
const taByteLength = getOwnPropertyDescriptor(typedProto, "byteLength").get;
const taLength = getOwnPropertyDescriptor(typedProto, "length").get;
const taTag = getOwnPropertyDescriptor(typedProto, Symbol.toStringTag).get;
const taSubarray = typedProto.subarray;
const taSet = typedProto.set;
const taSlice = typedProto.slice;
const taIndexOf = typedProto.indexOf;
const dvBuffer = getOwnPropertyDescriptor(DataView.prototype, "buffer").get;
const dvOffset = getOwnPropertyDescriptor(DataView.prototype, "byteOffset").get;
const dvByteLength = getOwnPropertyDescriptor(DataView.prototype, "byteLength").get;
const abByteLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const SharedArrayBufferI = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
const sabByteLength = SharedArrayBufferI === undefined ? undefined
  : getOwnPropertyDescriptor(SharedArrayBufferI.prototype, "byteLength").get;
const isView = ArrayBuffer.isView;
const toBase64 = Uint8Array.prototype.toBase64;
const fromBase64 = Uint8Array.fromBase64;
const toHex = Uint8Array.prototype.toHex;
const fromHex = Uint8Array.fromHex;
const nativeAtob = web.atob;
const nativeBtoa = web.btoa;
const escapeI = escape;
const unescapeI = unescape;
const encodeURI = encodeURIComponent;
const decodeURI = decodeURIComponent;
const fromCharCode = String.fromCharCode;
const charCodeAt = String.prototype.charCodeAt;
const strSliceI = String.prototype.slice;
const toLowerCase = String.prototype.toLowerCase;
const toWellFormed = String.prototype.toWellFormed;
const isWellFormed = String.prototype.isWellFormed;
const reExec = RegExp.prototype.exec;
const DOMExceptionI = web.DOMException;
const domProto = DOMExceptionI.prototype;
function isDOMException(e) { return e !== null && typeof e === "object" && getPrototypeOf(e) === domProto; }
// The natives' options, each as an own property: an option missing here
// would be read from Object.prototype, where guest code can put a getter.
const base64Options = freeze({ alphabet: "base64", lastChunkHandling: "loose" });
const base64Out = freeze({ alphabet: "base64", omitPadding: false });

// Node's errors carry a code (ERR_...) besides their class and message.
function nodeError(Ctor, code, message) {
  const e = new Ctor(message);
  defineProperty(e, "code", { value: code, writable: true, enumerable: true, configurable: true });
  return e;
}
// text converts as a template literal does, with V8's message for a
// symbol (QuickJS-NG words it differently).
function text(v) {
  if (typeof v === "symbol") throw new TypeErrorI("Cannot convert a Symbol value to a string");
  return `${v}`;
}
// received describes a wrong argument as Node's messages do.
function received(v) {
  if (v === null || v === undefined) return " Received " + v;
  if (typeof v === "function") return " Received function " + v.name;
  if (typeof v === "object") {
    const c = v.constructor;
    if (c && typeof c === "function" && typeof c.name === "string" && c.name !== "") {
      return " Received an instance of " + c.name;
    }
    return " Received an instance of Object";
  }
  let shown;
  if (typeof v === "string") {
    shown = "'" + v + "'";
  } else if (typeof v === "bigint") {
    shown = StringIntrinsic(v) + "n";
  } else if (typeof v === "number" && v === 0 && 1 / v < 0) {
    shown = "-0";
  } else {
    shown = StringIntrinsic(v);
  }
  if (shown.length > 28) shown = apply(strSliceI, shown, [0, 25]) + "...";
  return " Received type " + typeof v + " (" + shown + ")";
}

// viewOf returns a Uint8Array over the bytes of an ArrayBuffer,
// SharedArrayBuffer, TypedArray or DataView, or undefined for anything
// else.
function viewOf(input) {
  if (input === null || typeof input !== "object") return undefined;
  if (apply(isView, ArrayBufferI, [input])) {
    if (apply(taTag, input, []) !== undefined) {
      return new Uint8(apply(taBuffer, input, []), apply(taOffset, input, []), apply(taByteLength, input, []));
    }
    return new Uint8(apply(dvBuffer, input, []), apply(dvOffset, input, []), apply(dvByteLength, input, []));
  }
  try {
    apply(abByteLength, input, []);
    return new Uint8(input);
  } catch (e) { /* not an ArrayBuffer */ }
  if (sabByteLength !== undefined) {
    try {
      apply(sabByteLength, input, []);
      return new Uint8(input);
    } catch (e) { /* not a SharedArrayBuffer */ }
  }
  return undefined;
}

function sub(bytes, start, end) { return apply(taSubarray, bytes, [start, end]); }
function len(bytes) { return apply(taLength, bytes, []); }
function matches(re, s) { return apply(reExec, re, [s]) !== null; }

// latin1Of turns bytes into the string of one char per byte, natively.
function latin1Of(bytes) {
  if (len(bytes) === 0) return "";
  return nativeAtob(apply(toBase64, bytes, [base64Out]));
}
// bytesOfLatin1 turns a string of chars below U+0100 into bytes (btoa
// throws a DOMException for any other).
function bytesOfLatin1(s) {
  if (s.length === 0) return new Uint8(0);
  return apply(fromBase64, Uint8, [nativeBtoa(s), base64Options]);
}

// A text built from chunks: concatenated in a balanced tree, each char
// is copied O(log n) times. A running += is as fast while QuickJS-NG can
// append in place (room left in the allocation, one char width), but
// copies all the text so far for every chunk when it cannot, as when
// wide and narrow chunks alternate. The parts live in objects without a
// prototype, out of reach of Array.prototype setters.
function textSink() { return { parts: { __proto__: null }, levels: { __proto__: null }, n: 0 }; }
function addText(k, s) {
  let level = 0;
  while (k.n > 0 && k.levels[k.n - 1] === level) {
    s = k.parts[k.n - 1] + s;
    k.parts[k.n - 1] = undefined;
    k.n--;
    level++;
  }
  k.parts[k.n] = s;
  k.levels[k.n] = level;
  k.n++;
}
function textOf(k) {
  let s = "";
  while (k.n > 0) {
    k.n--;
    s = k.parts[k.n] + s;
    k.parts[k.n] = undefined;
  }
  return s;
}

// A growable byte sink, for results built from chunks.
function sink(capacity) { return { bytes: new Uint8(capacity), n: 0 }; }
function put(k, chunk) {
  const m = len(chunk);
  if (k.n + m > len(k.bytes)) {
    let c = len(k.bytes) * 2 + 16;
    while (c < k.n + m) c *= 2;
    const bigger = new Uint8(c);
    apply(taSet, bigger, [sub(k.bytes, 0, k.n)]);
    k.bytes = bigger;
  }
  apply(taSet, k.bytes, [chunk, k.n]);
  k.n += m;
}
function taken(k) { return sub(k.bytes, 0, k.n); }

// Natives work on chunks of this many bytes or code units, so that
// their temporary strings (encodeURIComponent's are up to nine times
// the input) stay small next to the memory limit.
const CHUNK = 32768;

// isASCII: unescape(encodeURIComponent(s)) is s again exactly when s is
// ASCII (any other char becomes two or more). Both natives are among
// QuickJS-NG's fast ones here; a regular expression scans several times
// slower, btoa and escape more still. s has no lone surrogate.
function isASCII(s) { return unescapeI(encodeURI(s)).length === s.length; }

// utf8Encode: lone surrogates become U+FFFD, as TextEncoder's encode and
// Buffer.from(string) do.
function utf8Encode(input) {
  const s = apply(toWellFormed, input, []);
  if (s.length <= CHUNK) return bytesOfLatin1(unescapeI(encodeURI(s)));
  const k = sink(s.length + 16);
  for (let i = 0; i < s.length;) {
    let j = i + CHUNK < s.length ? i + CHUNK : s.length;
    const last = apply(charCodeAt, s, [j - 1]);
    if (j < s.length && last >= 0xd800 && last <= 0xdbff) j--;
    const part = apply(strSliceI, s, [i, j]);
    put(k, bytesOfLatin1(unescapeI(encodeURI(part))));
    i = j;
  }
  return taken(k);
}

// seqLength is how many bytes the UTF-8 sequence led by b takes, 0 for a
// byte no sequence starts with.
function seqLength(b) {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}
// secondOK: the byte after a lead has a narrower range for some leads
// (no overlong form, no surrogate, nothing past U+10FFFF).
function secondOK(lead, b) {
  if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
  if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
  if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
  if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  return b >= 0x80 && b <= 0xbf;
}

// incompleteTail is where a valid but unfinished sequence at the end of
// bytes starts (len(bytes) when there is none): a stream keeps it for
// the next chunk.
function incompleteTail(bytes) {
  const n = len(bytes);
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = bytes[i];
    if (b >= 0x80 && b <= 0xbf) continue;
    const need = seqLength(b);
    if (need <= 1 || i + need <= n) return n;
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 ? !secondOK(b, bytes[j]) : bytes[j] < 0x80 || bytes[j] > 0xbf) return n;
    }
    return i;
  }
  return n;
}

// utf8Slow decodes with the WHATWG decoder's replacement of each maximal
// invalid subpart by U+FFFD; fatal throws instead. It returns undefined
// for fatal input.
function utf8Slow(bytes, fatal) {
  const n = len(bytes);
  const units = new Uint16(8192);
  let u = 0;
  const out = textSink();
  // One loop with nothing called per byte: a function call per byte
  // doubles the cost in this interpreter.
  for (let i = 0; i < n;) {
    if (u > 8188) { addText(out, apply(fromCharCode, undefined, sub(units, 0, u))); u = 0; }
    const b = bytes[i];
    if (b < 0x80) { units[u++] = b; i++; continue; }
    let end, cp, lo = 0x80, hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) { end = i + 2; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) { end = i + 3; cp = b & 0x0f; if (b === 0xe0) lo = 0xa0; else if (b === 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { end = i + 4; cp = b & 0x07; if (b === 0xf0) lo = 0x90; else if (b === 0xf4) hi = 0x8f; }
    else {
      if (fatal) return undefined;
      units[u++] = 0xfffd;
      i++;
      continue;
    }
    let j = i + 1;
    for (; j < end; j++) {
      const c = j < n ? bytes[j] : -1;
      if (c < lo || c > hi) break;
      lo = 0x80;
      hi = 0xbf;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (j < end) {
      // The maximal subpart is one U+FFFD; the byte that broke it is
      // read again.
      if (fatal) return undefined;
      units[u++] = 0xfffd;
      i = j;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[u++] = 0xd800 + (cp >> 10);
      units[u++] = 0xdc00 + (cp & 0x3ff);
    } else {
      units[u++] = cp;
    }
    i = end;
  }
  addText(out, apply(fromCharCode, undefined, sub(units, 0, u)));
  return textOf(out);
}

// cutBefore is where a chunk ending near j may end: j moved back to the
// lead of the sequence j is inside. After three continuation bytes
// before j, j is inside no sequence (none is longer than four bytes) and
// stays. Chunks cut there decode as the whole input would.
function cutBefore(bytes, j) {
  let k = j;
  for (let back = 0; back < 3 && bytes[k] >= 0x80 && bytes[k] <= 0xbf; back++) k--;
  return bytes[k] >= 0x80 && bytes[k] <= 0xbf ? j : k;
}

// utf8Decode decodes complete input (no unfinished tail kept) by chunks:
// natively, or in JavaScript a chunk the native decoder refuses (it has
// invalid UTF-8, whose replacements must be Node's). It returns
// undefined for fatal input.
function utf8Decode(bytes, fatal) {
  const n = len(bytes);
  const out = textSink();
  let ascii = true;
  for (let i = 0; i < n;) {
    const j = i + CHUNK < n ? cutBefore(bytes, i + CHUNK) : n;
    const l1 = latin1Of(sub(bytes, i, j));
    // The ASCII test pays off while the chunks are ASCII; after one that
    // is not, the next goes straight to the decoder.
    if (ascii && isASCII(l1)) { addText(out, l1); i = j; continue; }
    let s;
    try { s = decodeURI(escapeI(l1)); } catch (e) { s = undefined; }
    ascii = s !== undefined && s.length === l1.length;
    if (s === undefined) {
      s = utf8Slow(sub(bytes, i, j), fatal);
      if (s === undefined) return undefined;
    }
    addText(out, s);
    i = j;
  }
  return textOf(out);
}

// windows-1252's bytes 0x80-0x9F (the rest map to U+0000-U+00FF).
const cp1252 = [0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178];
// windows1252Decode finds the bytes 0x80-0x9F that map elsewhere with
// the native indexOf (32 scans, no temporary string) and rewrites only
// those in a UTF-16 copy.
function windows1252Decode(bytes) {
  let units;
  for (let v = 0x80; v <= 0x9f; v++) {
    const to = cp1252[v - 0x80];
    if (to === v) continue;
    let p = apply(taIndexOf, bytes, [v]);
    if (p < 0) continue;
    if (units === undefined) units = new Uint16(bytes);
    for (; p >= 0; p = apply(taIndexOf, bytes, [v, p + 1])) units[p] = to;
  }
  return units === undefined ? latin1Of(bytes) : unitsToString(units);
}
function unitsToString(units) {
  const out = textSink();
  const n = len(units);
  for (let i = 0; i < n; i += 8192) {
    addText(out, apply(fromCharCode, undefined, sub(units, i, i + 8192 < n ? i + 8192 : n)));
  }
  return textOf(out);
}

// utf16Units reads bytes as little-endian code units (an odd last byte
// is left out): a Uint16Array over an aligned copy, since WebAssembly
// memory, and so every typed array here, is little-endian.
function utf16Units(bytes) {
  const n = len(bytes) & ~1;
  const copy = new Uint8(n);
  apply(taSet, copy, [sub(bytes, 0, n)]);
  return new Uint16(apply(taBuffer, copy, []), 0, n >> 1);
}

// utf16leDecode decodes whole code units; lone surrogates become U+FFFD
// (fatal: undefined), by the natives isWellFormed and toWellFormed. A
// stream keeps an odd byte and a final high surrogate for the next
// chunk.
function utf16leDecode(bytes, fatal, stream) {
  const units = utf16Units(bytes);
  let keep = len(bytes) & 1;
  let m = len(units);
  if (stream && m > 0 && units[m - 1] >= 0xd800 && units[m - 1] <= 0xdbff) { m--; keep += 2; }
  let text = unitsToString(sub(units, 0, m));
  if (!apply(isWellFormed, text, [])) {
    if (fatal) return undefined;
    text = apply(toWellFormed, text, []);
  }
  if (!stream && keep) {
    if (fatal) return undefined;
    return { text: text + "\ufffd", keep: 0 };
  }
  return { text: text, keep: keep };
}

web.bytes = freeze({
  nodeError: nodeError, text: text, received: received, viewOf: viewOf, latin1Of: latin1Of, bytesOfLatin1: bytesOfLatin1,
  utf8Encode: utf8Encode, utf8Decode: utf8Decode, sink: sink, put: put, taken: taken,
  sub: sub, len: len, isASCII: isASCII, utf16Units: utf16Units, isDOMException: isDOMException, unitsToString: unitsToString,
  toBase64: toBase64, fromBase64: fromBase64, toHex: toHex, fromHex: fromHex, base64Out: base64Out,
});

// The WHATWG Encoding Standard's labels for the encodings decoded here.
const labels = {};
const table = {
  "utf-8": ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"],
  "utf-16le": ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"],
  "windows-1252": ["ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100",
    "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"],
};
for (const name in table) {
  const list = table[name];
  for (let i = 0; i < list.length; i++) labels[list[i]] = name;
}
freeze(labels);
function isLabelSpace(c) { return c === "\t" || c === "\n" || c === "\f" || c === "\r" || c === " "; }
function encodingOf(label) {
  let s = apply(toLowerCase, label, []);
  let a = 0, b = s.length;
  while (a < b && isLabelSpace(s[a])) a++;
  while (b > a && isLabelSpace(s[b - 1])) b--;
  s = apply(strSliceI, s, [a, b]);
  const d = getOwnPropertyDescriptor(labels, s);
  return d === undefined ? undefined : d.value;
}

function checkOptions(options) {
  if (options !== null && typeof options !== "object" && typeof options !== "function") {
    throw nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE", "The \"options\" argument must be of type object." + received(options));
  }
}

const encoders = new WeakMapI();
const decoders = new WeakMapI();
function encoderCheck(self) {
  if (!apply(weakHas, encoders, [self])) {
    throw nodeError(TypeErrorI, "ERR_INVALID_THIS", "Value of \"this\" must be of type TextEncoder");
  }
}
function decoderState(self) {
  const d = apply(weakGet, decoders, [self]);
  if (d === undefined) throw nodeError(TypeErrorI, "ERR_INVALID_THIS", "Value of \"this\" must be of type TextDecoder");
  return d;
}

// Both are constructors only: called without new they throw as a class
// constructor does in Node (V8's message).
function TextEncoder() {
  if (new.target === undefined) throw new TypeErrorI("Class constructor TextEncoder cannot be invoked without 'new'");
  apply(weakSet, encoders, [this, true]);
}
function TextDecoder() {
  if (new.target === undefined) throw new TypeErrorI("Class constructor TextDecoder cannot be invoked without 'new'");
  const label = arguments.length > 0 && arguments[0] !== undefined ? text(arguments[0]) : "utf-8";
  const options = arguments.length > 1 && arguments[1] !== undefined ? arguments[1] : {};
  checkOptions(options);
  const encoding = encodingOf(label);
  if (encoding === undefined) {
    throw nodeError(RangeErrorI, "ERR_ENCODING_NOT_SUPPORTED", "The \"" + label + "\" encoding is not supported");
  }
  const fatal = options !== null && !!options.fatal;
  const ignoreBOM = options !== null && !!options.ignoreBOM;
  apply(weakSet, decoders, [this, {
    encoding: encoding, fatal: fatal, ignoreBOM: ignoreBOM,
    // Node 20 decodes UTF-8 on a fast path until a decode asks for a
    // stream; its errors then name the argument differently.
    fastPath: encoding === "utf-8", pending: new Uint8(0), bomSeen: false,
  }]);
}

// Prototype methods are method definitions (builtin would bind their
// this away); getters come from accessor definitions, named "get x".
function method(proto, name, fn, enumerable) {
  defineProperty(proto, name, { value: fn, writable: true, enumerable: enumerable, configurable: true });
}
function getter(proto, name, holder) {
  const g = getOwnPropertyDescriptor(holder, name).get;
  defineProperty(proto, name, { get: g, set: undefined, enumerable: true, configurable: true });
}
function tag(proto, name) {
  defineProperty(proto, Symbol.toStringTag, { value: name, writable: false, enumerable: false, configurable: true });
}

method(TextEncoder.prototype, "encode", {
  encode() {
    encoderCheck(this);
    const input = arguments.length > 0 && arguments[0] !== undefined ? text(arguments[0]) : "";
    const bytes = utf8Encode(input);
    // A fresh Uint8Array of exactly the bytes (not a view of a larger
    // buffer), as Node's.
    if (len(bytes) === apply(abByteLength, apply(taBuffer, bytes, []), [])) return bytes;
    const out = new Uint8(len(bytes));
    apply(taSet, out, [bytes]);
    return out;
  },
}.encode, true);
method(TextEncoder.prototype, "encodeInto", {
  encodeInto(src, dest) {
    encoderCheck(this);
    if (typeof src !== "string") {
      throw nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE", "The \"src\" argument must be of type string." + received(src));
    }
    if (dest === null || typeof dest !== "object" || apply(taTag, dest, []) !== "Uint8Array") {
      throw nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE", "The \"dest\" argument must be an instance of Uint8Array." + received(dest));
    }
    const room = len(dest);
    // At most room code units can fit (each takes a byte or more); one
    // more lets a surrogate pair at the edge be seen whole.
    const part = src.length > room + 1 ? apply(strSliceI, src, [0, room + 1]) : src;
    const bytes = utf8Encode(part);
    let cut = len(bytes);
    if (cut > room) {
      cut = room;
      while (cut > 0 && bytes[cut] >= 0x80 && bytes[cut] <= 0xbf) cut--;
    }
    apply(taSet, dest, [sub(bytes, 0, cut)]);
    const read = cut === len(bytes) ? part.length : utf8Decode(sub(bytes, 0, cut), false).length;
    return { read: read, written: cut };
  },
}.encodeInto, true);
getter(TextEncoder.prototype, "encoding", {
  get encoding() { encoderCheck(this); return "utf-8"; },
});
tag(TextEncoder.prototype, "TextEncoder");

function invalidInput(arg) {
  return nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE",
    "The \"" + arg + "\" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.");
}
function invalidData(encoding) {
  return nodeError(TypeErrorI, "ERR_ENCODING_INVALID_ENCODED_DATA", "The encoded data was not valid for encoding " + encoding);
}

// joined is the decoder's kept bytes followed by the new ones.
function joined(d, bytes) {
  if (len(d.pending) === 0) return bytes;
  const all = new Uint8(len(d.pending) + len(bytes));
  apply(taSet, all, [d.pending]);
  apply(taSet, all, [bytes, len(d.pending)]);
  return all;
}

function decodeWith(d, bytes, stream) {
  let text;
  if (d.encoding === "windows-1252") return windows1252Decode(bytes);
  const all = joined(d, bytes);
  if (d.encoding === "utf-8") {
    const cut = stream ? incompleteTail(all) : len(all);
    text = utf8Decode(sub(all, 0, cut), d.fatal);
    d.pending = cut < len(all) ? apply(taSlice, all, [cut]) : new Uint8(0);
  } else {
    const r = utf16leDecode(all, d.fatal, stream);
    if (r !== undefined) {
      text = r.text;
      d.pending = r.keep > 0 ? apply(taSlice, all, [len(all) - r.keep]) : new Uint8(0);
    }
  }
  if (text === undefined) {
    d.pending = new Uint8(0);
    d.bomSeen = false;
    throw invalidData(d.encoding);
  }
  if (!d.ignoreBOM && !d.bomSeen && text.length > 0) {
    d.bomSeen = true;
    if (apply(charCodeAt, text, [0]) === 0xfeff) text = apply(strSliceI, text, [1]);
  }
  if (!stream) d.bomSeen = false;
  return text;
}

method(TextDecoder.prototype, "decode", {
  decode() {
    const d = decoderState(this);
    const input = arguments.length > 0 ? arguments[0] : undefined;
    const options = arguments.length > 1 && arguments[1] !== undefined ? arguments[1] : {};
    if (d.fastPath && !(options !== null && options !== undefined && options.stream)) {
      if (input === undefined) return "";
      const bytes = viewOf(input);
      if (bytes === undefined) throw invalidInput("list");
      const text = utf8Decode(bytes, d.fatal);
      if (text === undefined) throw invalidData("utf-8");
      if (!d.ignoreBOM && text.length > 0 && apply(charCodeAt, text, [0]) === 0xfeff) return apply(strSliceI, text, [1]);
      return text;
    }
    d.fastPath = false;
    checkOptions(options);
    const bytes = input === undefined ? new Uint8(0) : viewOf(input);
    if (bytes === undefined) throw invalidInput("input");
    return decodeWith(d, bytes, options !== null && !!options.stream);
  },
}.decode, true);
getter(TextDecoder.prototype, "encoding", {
  get encoding() { return decoderState(this).encoding; },
});
getter(TextDecoder.prototype, "fatal", {
  get fatal() { return decoderState(this).fatal; },
});
getter(TextDecoder.prototype, "ignoreBOM", {
  get ignoreBOM() { return decoderState(this).ignoreBOM; },
});
tag(TextDecoder.prototype, "TextDecoder");

// atob and btoa are QuickJS-NG's natives, which decode and encode as
// Node's do (TestAtobBtoaAsNode); only the messages of their errors are
// Node's (lib/buffer.js): "Invalid character", or "The string to be
// decoded is not correctly encoded." when the length is wrong.
function missingInput() {
  return nodeError(TypeErrorI, "ERR_MISSING_ARGS", "The \"input\" argument must be specified");
}
function invalidCharacter() { return new DOMExceptionI("Invalid character", "InvalidCharacterError"); }
const base64Chars = /^[A-Za-z0-9+/=\t\n\f\r ]*$/;
function atobError(s) {
  if (!matches(base64Chars, s)) return invalidCharacter();
  let count = 0, equals = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (isLabelSpace(c)) continue;
    count++;
    if (c === "=") {
      if (++equals > 2) return invalidCharacter();
    } else if (equals > 0) {
      return invalidCharacter();
    }
  }
  let rest = count % 4;
  if (rest === 0) rest = (count - equals) % 4;
  else if (equals > 0) return invalidCharacter();
  if (rest === 1) return new DOMExceptionI("The string to be decoded is not correctly encoded.", "InvalidCharacterError");
  return invalidCharacter();
}
// Plain functions, as Node's (with a prototype).
function atob(input) {
  if (arguments.length === 0) throw missingInput();
  const s = text(input);
  try {
    return nativeAtob(s);
  } catch (e) {
    throw isDOMException(e) ? atobError(s) : e;
  }
}
function btoa(input) {
  if (arguments.length === 0) throw missingInput();
  const s = text(input);
  try {
    return nativeBtoa(s);
  } catch (e) {
    throw isDOMException(e) ? invalidCharacter() : e;
  }
}

defineGlobal("TextEncoder", TextEncoder, false);
defineGlobal("TextDecoder", TextDecoder, false);
defineGlobal("atob", atob, true);
defineGlobal("btoa", btoa, true);

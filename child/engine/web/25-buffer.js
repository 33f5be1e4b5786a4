// Buffer: the subset of Node 20's lib/buffer.js that code written for
// Node reaches for (from, alloc, concat, toString and the encodings,
// equals/compare, slice/subarray as views, toJSON, write, fill,
// indexOf/includes, copy, the 8/16/32-bit integer reads and writes),
// with Node's argument checks and error messages. A Buffer is a
// Uint8Array subclass; it is never pooled (every Buffer from a string or
// an array owns its ArrayBuffer) and allocUnsafe zero-fills.
const b = web.bytes;
const Uint8 = Uint8Array;
const TypeErrorI = TypeError;
const RangeErrorI = RangeError;
const isArray = Array.isArray;
const setPrototypeOf = Object.setPrototypeOf;
const mathTrunc = Math.trunc;
const mathFloor = Math.floor;
const mathAbs = Math.abs;
const isInteger = Number.isInteger;
const numberIsNaN = Number.isNaN;
const toPrimitive = Symbol.toPrimitive;
const typedProto = getPrototypeOf(Uint8Array.prototype);
const taBuffer = getOwnPropertyDescriptor(typedProto, "buffer").get;
const taOffset = getOwnPropertyDescriptor(typedProto, "byteOffset").get;
const taByteLength = getOwnPropertyDescriptor(typedProto, "byteLength").get;
const taTag = getOwnPropertyDescriptor(typedProto, Symbol.toStringTag).get;
const abByteLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const SharedArrayBufferI = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
const sabByteLength = SharedArrayBufferI === undefined ? undefined
  : getOwnPropertyDescriptor(SharedArrayBufferI.prototype, "byteLength").get;
const taSet = typedProto.set;
const taFill = typedProto.fill;
const isView = ArrayBuffer.isView;
const charCodeAt = String.prototype.charCodeAt;
const toLowerCase = String.prototype.toLowerCase;
const strSlice = String.prototype.slice;
const reExec = RegExp.prototype.exec;
const toBase64 = b.toBase64, fromBase64 = b.fromBase64, toHex = b.toHex, fromHex = b.fromHex;
const len = b.len, sub = b.sub, nodeError = b.nodeError, received = b.received;
const kMaxLength = 2 ** 32;

function isUint8Array(v) {
  return v !== null && typeof v === "object" && apply(taTag, v, []) === "Uint8Array";
}
function isAnyArrayBuffer(v) {
  if (v === null || typeof v !== "object") return false;
  try { apply(abByteLength, v, []); return true; } catch (e) { /* not one */ }
  if (sabByteLength === undefined) return false;
  try { apply(sabByteLength, v, []); return true; } catch (e) { return false; }
}
function arrayBufferLength(v) {
  try { return apply(abByteLength, v, []); } catch (e) { return apply(sabByteLength, v, []); }
}

// Node's error messages (lib/internal/errors.js, lib/internal/validators.js).
function typeError(name, what, value) {
  const subject = name === "first argument" ? "The first argument" : "The \"" + name + "\" argument";
  return nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE", subject + " must be " + what + "." + received(value));
}
function separated(s) {
  let out = "", i = s.length;
  const start = s[0] === "-" ? 1 : 0;
  for (; i >= start + 4; i -= 3) out = "_" + apply(strSlice, s, [i - 3, i]) + out;
  return apply(strSlice, s, [0, i]) + out;
}
function outOfRange(name, range, value) {
  let shown;
  if (isInteger(value) && mathAbs(value) > 2 ** 32) shown = separated(StringIntrinsic(value));
  else if (typeof value === "number" && value === 0 && 1 / value < 0) shown = "-0";
  else if (typeof value === "string") shown = "'" + value + "'";
  else shown = StringIntrinsic(value);
  return nodeError(RangeErrorI, "ERR_OUT_OF_RANGE",
    "The value of \"" + name + "\" is out of range. It must be " + range + ". Received " + shown);
}
function outOfBounds(name) {
  return nodeError(RangeErrorI, "ERR_BUFFER_OUT_OF_BOUNDS",
    name ? "\"" + name + "\" is outside of buffer bounds" : "Attempt to access memory outside buffer bounds");
}
function unknownEncoding(encoding) {
  return nodeError(TypeErrorI, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + b.text(encoding));
}
function validateNumber(value, name, min, max) {
  if (typeof value !== "number") throw typeError(name, "of type number", value);
  if ((min !== undefined && value < min) || (max !== undefined && value > max) ||
      ((min !== undefined || max !== undefined) && numberIsNaN(value))) {
    throw outOfRange(name, (min !== undefined ? ">= " + min : "") + (min !== undefined && max !== undefined ? " && " : "") +
      (max !== undefined ? "<= " + max : ""), value);
  }
}
function validateOffset(value, name, min, max) {
  if (min === undefined) min = 0;
  if (max === undefined) max = kMaxLength;
  if (typeof value !== "number") throw typeError(name, "of type number", value);
  if (!isInteger(value)) throw outOfRange(name, "an integer", value);
  if (value < min || value > max) throw outOfRange(name, ">= " + min + " && <= " + max, value);
}

// The encodings, by Node's names (normalizeEncoding).
const encodingNames = {
  "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le", "utf16le": "utf16le", "utf-16le": "utf16le",
  "latin1": "latin1", "binary": "latin1", "base64": "base64", "base64url": "base64url", "hex": "hex", "ascii": "ascii",
};
freeze(encodingNames);
// opsOf is getEncodingOps: the encoding's name, or undefined.
function opsOf(encoding) {
  const s = apply(toLowerCase, b.text(encoding), []);
  const d = getOwnPropertyDescriptor(encodingNames, s);
  return d === undefined ? undefined : d.value;
}
// normalized is normalizeEncoding: null, undefined and "" are utf8.
function normalized(encoding) {
  if (encoding === undefined || encoding === null || encoding === "") return "utf8";
  if (typeof encoding !== "string") return undefined;
  return opsOf(encoding);
}

// The bytes of a string in an encoding (what Buffer.from writes).
function lowByte(s, i) { return apply(charCodeAt, s, [i]) & 0xff; }
function latin1Bytes(s) {
  try { return b.bytesOfLatin1(s); } catch (e) { if (!b.isDOMException(e)) throw e; }
  const out = new Uint8(s.length);
  for (let i = 0; i < s.length; i++) out[i] = lowByte(s, i);
  return out;
}
function utf16Bytes(s) {
  const out = new Uint8(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = apply(charCodeAt, s, [i]);
    out[2 * i] = c & 0xff;
    out[2 * i + 1] = c >> 8;
  }
  return out;
}
function unhex(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
function hexBytes(s) {
  // The native decoder takes even-length hex; Node's reads up to the
  // first pair that is not hex.
  try { return apply(fromHex, Uint8, [s]); } catch (e) { /* odd length or not hex */ }
  const out = new Uint8(s.length >>> 1);
  let i = 0;
  for (; i < len(out); i++) {
    const hi = unhex(lowByte(s, 2 * i)), lo = unhex(lowByte(s, 2 * i + 1));
    if (hi < 0 || lo < 0) break;
    out[i] = (hi << 4) | lo;
  }
  return sub(out, 0, i);
}
function unbase64(c) {
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  if (c >= 0x61 && c <= 0x7a) return c - 0x47;
  if (c >= 0x30 && c <= 0x39) return c + 4;
  if (c === 0x2b || c === 0x2d) return 62;
  if (c === 0x2f || c === 0x5f) return 63;
  return 64;
}
function base64Length(s) {
  let n = s.length;
  if (n > 0 && apply(charCodeAt, s, [n - 1]) === 0x3d) n--;
  if (n > 1 && apply(charCodeAt, s, [n - 1]) === 0x3d) n--;
  return (n * 3) >>> 2;
}
const loose64 = freeze({ alphabet: "base64", lastChunkHandling: "loose" });
const looseURL = freeze({ alphabet: "base64url", lastChunkHandling: "loose" });
// base64Bytes decodes as Node's: both alphabets, anything else skipped,
// the first "=" ends the data. The native decoder takes the common case.
function base64Bytes(s) {
  const limit = base64Length(s);
  let out;
  try { out = apply(fromBase64, Uint8, [s, loose64]); } catch (e) {
    try { out = apply(fromBase64, Uint8, [s, looseURL]); } catch (e2) { out = undefined; }
  }
  if (out === undefined) {
    out = new Uint8(limit);
    let k = 0, acc = 0, bits = 0;
    for (let i = 0; i < s.length; i++) {
      const c = lowByte(s, i);
      if (c === 0x3d) break;
      const v = unbase64(c);
      if (v === 64) continue;
      acc = ((acc << 6) | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        if (k < limit) out[k++] = (acc >> bits) & 0xff;
      }
    }
    out = sub(out, 0, k);
  }
  return len(out) > limit ? sub(out, 0, limit) : out;
}
function encode(s, enc) {
  switch (enc) {
    case "utf8": return b.utf8Encode(s);
    case "utf16le": return utf16Bytes(s);
    case "latin1": case "ascii": return latin1Bytes(s);
    case "hex": return hexBytes(s);
    default: return base64Bytes(s);
  }
}
function byteLengthOf(s, enc) {
  switch (enc) {
    case "utf16le": return s.length * 2;
    case "latin1": case "ascii": return s.length;
    case "hex": return s.length >>> 1;
    case "base64": case "base64url": return base64Length(s);
    default: return len(b.utf8Encode(s));
  }
}

// The text of bytes in an encoding (what toString reads).
const base64urlOut = freeze({ alphabet: "base64url", omitPadding: true });
function decode(bytes, enc) {
  switch (enc) {
    case "utf8": return b.utf8Decode(bytes, false);
    case "latin1": return b.latin1Of(bytes);
    case "ascii": {
      const s = b.latin1Of(bytes);
      if (b.isASCII(s)) return s;
      const units = new Uint16Array(len(bytes));
      for (let i = 0; i < len(bytes); i++) units[i] = bytes[i] & 0x7f;
      return b.unitsToString(units);
    }
    case "utf16le": return b.unitsToString(b.utf16Units(bytes));
    case "hex": return apply(toHex, bytes, []);
    case "base64": return apply(toBase64, bytes, [b.base64Out]);
    default: return apply(toBase64, bytes, [base64urlOut]);
  }
}

// The bytes of a view, as a plain Uint8Array over the same memory.
function bytesOf(view) { return new Uint8(apply(taBuffer, view, []), apply(taOffset, view, []), apply(taByteLength, view, [])); }

class FastBuffer extends Uint8 {
  constructor(bufferOrLength, byteOffset, length) { super(bufferOrLength, byteOffset, length); }
}
function fromBytes(bytes) {
  const out = new FastBuffer(len(bytes));
  apply(taSet, out, [bytes]);
  return out;
}

// Buffer(arg) is Buffer.from or Buffer.alloc, as Node's deprecated
// constructor (without the warning); new Buffer(n) is what TypedArray
// methods such as map call through the species.
function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === "number") {
    if (typeof encodingOrOffset === "string") throw typeError("string", "of type string", arg);
    return alloc(arg);
  }
  return from(arg, encodingOrOffset, length);
}
setPrototypeOf(Buffer, Uint8);
defineProperty(Buffer, "prototype", { value: FastBuffer.prototype, writable: false, enumerable: false, configurable: false });
defineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, enumerable: false, configurable: true });

function fromString(s, encoding) {
  let enc = "utf8";
  if (typeof encoding === "string" && encoding.length !== 0) {
    enc = opsOf(encoding);
    if (enc === undefined) throw unknownEncoding(encoding);
  }
  if (s.length === 0) return new FastBuffer(0);
  return fromBytes(encode(s, enc));
}
function fromArrayBuffer(ab, byteOffset, length) {
  if (byteOffset === undefined) byteOffset = 0;
  else {
    byteOffset = +byteOffset;
    if (numberIsNaN(byteOffset)) byteOffset = 0;
  }
  const maxLength = arrayBufferLength(ab) - byteOffset;
  if (maxLength < 0) throw outOfBounds("offset");
  if (length === undefined) length = maxLength;
  else {
    length = +length;
    if (length > 0) {
      if (length > maxLength) throw outOfBounds("length");
    } else {
      length = 0;
    }
  }
  return new FastBuffer(ab, byteOffset, length);
}
function fromArrayLike(o) {
  if (o.length <= 0) return new FastBuffer(0);
  return new FastBuffer(o);
}
function fromObject(o) {
  if (o.length !== undefined || isAnyArrayBuffer(o.buffer)) {
    if (typeof o.length !== "number") return new FastBuffer(0);
    return fromArrayLike(o);
  }
  if (o.type === "Buffer" && apply(isArray, undefined, [o.data])) return fromArrayLike(o.data);
  return undefined;
}
function from(value, encodingOrOffset, length) {
  if (typeof value === "string") return fromString(value, encodingOrOffset);
  if (typeof value === "object" && value !== null) {
    if (isAnyArrayBuffer(value)) return fromArrayBuffer(value, encodingOrOffset, length);
    const valueOf = value.valueOf && value.valueOf();
    if (valueOf !== null && valueOf !== undefined && valueOf !== value &&
        (typeof valueOf === "string" || typeof valueOf === "object")) {
      return from(valueOf, encodingOrOffset, length);
    }
    const o = fromObject(value);
    if (o !== undefined) return o;
    if (typeof value[toPrimitive] === "function") {
      const p = value[toPrimitive]("string");
      if (typeof p === "string") return fromString(p, encodingOrOffset);
    }
  }
  throw typeError("first argument",
    "of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object", value);
}

function alloc(size, fill, encoding) {
  validateNumber(size, "size", 0, kMaxLength);
  const buf = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && size > 0) return fillBuffer(buf, fill, 0, len(buf), encoding);
  return buf;
}
function allocUnsafe(size) {
  validateNumber(size, "size", 0, kMaxLength);
  return new FastBuffer(size);
}

// compareBytes is _compare: bytes first, then lengths.
function compareBytes(a, x) {
  const n = len(a) < len(x) ? len(a) : len(x);
  for (let i = 0; i < n; i++) {
    if (a[i] !== x[i]) return a[i] < x[i] ? -1 : 1;
  }
  return len(a) < len(x) ? -1 : len(a) > len(x) ? 1 : 0;
}

function fillBuffer(buf, value, offset, end, encoding) {
  let enc;
  if (typeof value === "string") {
    if (offset === undefined || typeof offset === "string") {
      encoding = offset;
      offset = 0;
      end = len(buf);
    } else if (typeof end === "string") {
      encoding = end;
      end = len(buf);
    }
    enc = normalized(encoding);
    if (enc === undefined) {
      if (typeof encoding !== "string") throw typeError("encoding", "of type string", encoding);
      throw unknownEncoding(encoding);
    }
    if (value.length === 0) {
      value = 0;
    } else if (value.length === 1) {
      const code = apply(charCodeAt, value, [0]);
      if (enc === "utf8" && code < 128) value = code;
      else if (enc === "latin1") value = code;
    }
  }
  if (offset === undefined) {
    offset = 0;
    end = len(buf);
  } else {
    validateOffset(offset, "offset");
    if (end === undefined) end = len(buf);
    else validateOffset(end, "end", 0, len(buf));
    if (offset >= end) return buf;
  }
  if (typeof value === "number") {
    if (offset > end || end > len(buf)) throw outOfBounds();
    apply(taFill, buf, [value, offset, end]);
    return buf;
  }
  let pattern;
  if (typeof value === "string") pattern = encode(value, enc);
  else if (apply(isView, undefined, [value])) pattern = bytesOf(value);
  else {
    apply(taFill, buf, [(value >>> 0) & 255, offset, end]);
    return buf;
  }
  if (len(pattern) === 0) {
    // Node shows the value as util.inspect does: a string quoted, an
    // empty view as its type and "(0) []".
    const shown = typeof value === "string" ? "'" + value + "'" : (apply(taTag, value, []) || "DataView") + "(0) []";
    throw nodeError(TypeErrorI, "ERR_INVALID_ARG_VALUE", "The argument 'value' is invalid. Received " + shown);
  }
  // Doubling copies fill a megabyte in a few dozen set calls.
  const n = end - offset;
  apply(taSet, buf, [len(pattern) > n ? sub(pattern, 0, n) : pattern, offset]);
  for (let done = len(pattern); done < n; done *= 2) {
    apply(taSet, buf, [sub(buf, offset, offset + (done < n - done ? done : n - done)), offset + done]);
  }
  return buf;
}

// indexOffset is Node's IndexOfOffset (src/node_buffer.cc).
function indexOffset(length, offset, needle, forward) {
  if (offset < 0) {
    if (offset + length >= 0) return length + offset;
    if (forward || needle === 0) return 0;
    return -1;
  }
  if (offset + needle <= length) return offset;
  if (needle === 0) return length;
  return forward ? -1 : length - 1;
}
// indexOf is bidirectionalIndexOf: forward for indexOf, backward (the
// last match starting at or before the offset) for lastIndexOf.
function indexOf(buf, val, byteOffset, encoding, forward) {
  if (typeof byteOffset === "string") {
    encoding = byteOffset;
    byteOffset = undefined;
  } else if (byteOffset > 0x7fffffff) {
    byteOffset = 0x7fffffff;
  } else if (byteOffset < -0x80000000) {
    byteOffset = -0x80000000;
  }
  byteOffset = +byteOffset;
  const n = len(buf);
  if (numberIsNaN(byteOffset)) byteOffset = forward ? 0 : n;
  byteOffset = mathTrunc(byteOffset);
  let needle;
  if (typeof val === "number") {
    needle = new Uint8(1);
    needle[0] = val >>> 0;
  } else {
    const enc = encoding === undefined ? "utf8" : opsOf(encoding);
    if (typeof val === "string") {
      if (enc === undefined) throw unknownEncoding(encoding);
      needle = encode(val, enc);
    } else if (isUint8Array(val)) {
      needle = bytesOf(val);
    } else {
      throw typeError("value", "one of type number or string or an instance of Buffer or Uint8Array", val);
    }
  }
  const m = len(needle);
  const start = indexOffset(n, byteOffset, m, forward);
  if (m === 0) return start;
  if (n === 0 || start < 0 || m > n) return -1;
  const first = needle[0];
  const step = forward ? 1 : -1;
  for (let i = forward ? start : (start < n - m ? start : n - m); forward ? i + m <= n : i >= 0; i += step) {
    if (buf[i] !== first) continue;
    let j = 1;
    while (j < m && buf[i + j] === needle[j]) j++;
    if (j === m) return i;
  }
  return -1;
}

function toInteger(n, otherwise) {
  n = +n;
  if (!numberIsNaN(n) && n >= -(2 ** 53 - 1) && n <= 2 ** 53 - 1) return n % 1 === 0 ? n : mathFloor(n);
  return otherwise;
}
function copyBytes(source, target, targetStart, sourceStart, sourceEnd) {
  if (sourceEnd - sourceStart > len(target) - targetStart) sourceEnd = sourceStart + len(target) - targetStart;
  let nb = sourceEnd - sourceStart;
  const sourceLen = len(source) - sourceStart;
  if (nb > sourceLen) nb = sourceLen;
  if (nb <= 0) return 0;
  apply(taSet, target, [sub(bytesOf(source), sourceStart, sourceStart + nb), targetStart]);
  return nb;
}

// writeString is ops.write: whole characters only, in at most length
// bytes from offset; it returns how many bytes it wrote.
function writeString(buf, s, offset, length, enc) {
  let bytes;
  if (enc === "utf8") {
    // At most length code units fit; one more shows a pair at the edge.
    bytes = b.utf8Encode(s.length > length + 1 ? apply(strSlice, s, [0, length + 1]) : s);
    if (len(bytes) > length) {
      let cut = length;
      while (cut > 0 && bytes[cut] >= 0x80 && bytes[cut] <= 0xbf) cut--;
      bytes = sub(bytes, 0, cut);
    }
  } else {
    bytes = encode(s, enc);
    let n = len(bytes) > length ? length : len(bytes);
    if (enc === "utf16le") n -= n & 1;
    bytes = sub(bytes, 0, n);
  }
  apply(taSet, buf, [bytes, offset]);
  return len(bytes);
}

const statics = {
  from: from,
  of() {
    const out = new FastBuffer(arguments.length);
    for (let k = 0; k < arguments.length; k++) out[k] = arguments[k];
    return out;
  },
  alloc: alloc,
  allocUnsafe: allocUnsafe,
  allocUnsafeSlow: allocUnsafe,
  isBuffer(o) { return o instanceof Buffer; },
  compare(buf1, buf2) {
    if (!isUint8Array(buf1)) throw typeError("buf1", "an instance of Buffer or Uint8Array", buf1);
    if (!isUint8Array(buf2)) throw typeError("buf2", "an instance of Buffer or Uint8Array", buf2);
    return buf1 === buf2 ? 0 : compareBytes(buf1, buf2);
  },
  isEncoding(encoding) {
    return typeof encoding === "string" && encoding.length !== 0 && normalized(encoding) !== undefined;
  },
  concat(list, length) {
    if (!apply(isArray, undefined, [list])) throw typeError("list", "an instance of Array", list);
    if (list.length === 0) return new FastBuffer(0);
    if (length === undefined) {
      length = 0;
      for (let i = 0; i < list.length; i++) {
        if (list[i].length) length += list[i].length;
      }
    } else {
      validateOffset(length, "length");
    }
    const out = new FastBuffer(length);
    let pos = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!isUint8Array(item)) throw typeError("list[" + i + "]", "an instance of Buffer or Uint8Array", item);
      pos += copyBytes(item, out, pos, 0, len(item));
    }
    return out;
  },
  byteLength(string, encoding) {
    if (typeof string !== "string") {
      if (apply(isView, undefined, [string])) return string.byteLength;
      if (isAnyArrayBuffer(string)) return arrayBufferLength(string);
      throw typeError("string", "of type string or an instance of Buffer or ArrayBuffer", string);
    }
    if (string.length === 0) return 0;
    const enc = encoding ? opsOf(encoding) : "utf8";
    return byteLengthOf(string, enc === undefined ? "utf8" : enc);
  },
};
defineProperty(Buffer, "poolSize", { value: 8192, writable: true, enumerable: true, configurable: true });
for (const name in statics) {
  defineProperty(Buffer, name, { value: statics[name], writable: true, enumerable: true, configurable: true });
}

function bounds(offset, last) {
  if (mathFloor(offset) !== offset) {
    validateNumber(offset, "offset");
    throw outOfRange("offset", "an integer", offset);
  }
  if (last < 0) throw outOfBounds();
  throw outOfRange("offset", ">= 0 and <= " + last, offset);
}
// readAt checks a read of size bytes at offset as Node does: a missing
// first or last byte is the error.
function readAt(buf, offset, size) {
  if (offset === undefined) offset = 0;
  validateNumber(offset, "offset");
  if (buf[offset] === undefined || buf[offset + size - 1] === undefined) bounds(offset, len(buf) - size);
  return offset;
}
function writeAt(buf, value, offset, size, min, max) {
  value = +value;
  if (offset === undefined) offset = 0;
  validateNumber(offset, "offset");
  if (value > max || value < min) throw outOfRange("value", ">= " + min + " and <= " + max, value);
  if (buf[offset] === undefined || buf[offset + size - 1] === undefined) bounds(offset, len(buf) - size);
  return value;
}

const methods = {
  toString(encoding, start, end) {
    if (arguments.length === 0) return decode(bytesOf(this), "utf8");
    const n = len(this);
    if (start <= 0) start = 0;
    else if (start >= n) return "";
    else start = mathTrunc(start) || 0;
    if (end === undefined || end > n) end = n;
    else end = mathTrunc(end) || 0;
    if (end <= start) return "";
    const bytes = sub(bytesOf(this), start, end);
    if (encoding === undefined) return decode(bytes, "utf8");
    const enc = opsOf(encoding);
    if (enc === undefined) throw unknownEncoding(encoding);
    return decode(bytes, enc);
  },
  equals(otherBuffer) {
    if (!isUint8Array(otherBuffer)) throw typeError("otherBuffer", "an instance of Buffer or Uint8Array", otherBuffer);
    if (this === otherBuffer) return true;
    if (apply(taByteLength, this, []) !== apply(taByteLength, otherBuffer, [])) return false;
    return compareBytes(this, otherBuffer) === 0;
  },
  compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
    if (!isUint8Array(target)) throw typeError("target", "an instance of Buffer or Uint8Array", target);
    if (arguments.length === 1) return compareBytes(this, target);
    if (targetStart === undefined) targetStart = 0;
    else validateOffset(targetStart, "targetStart");
    if (targetEnd === undefined) targetEnd = len(target);
    else validateOffset(targetEnd, "targetEnd", 0, len(target));
    if (sourceStart === undefined) sourceStart = 0;
    else validateOffset(sourceStart, "sourceStart");
    if (sourceEnd === undefined) sourceEnd = len(this);
    else validateOffset(sourceEnd, "sourceEnd", 0, len(this));
    if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
    if (targetStart >= targetEnd) return 1;
    if (sourceStart > len(this)) throw outOfRange("sourceStart", ">= 0 && <= " + len(this), sourceStart);
    if (targetStart > len(target)) throw outOfRange("targetStart", ">= 0 && <= " + len(target), targetStart);
    return compareBytes(sub(bytesOf(this), sourceStart, sourceEnd), sub(bytesOf(target), targetStart, targetEnd));
  },
  subarray(start, end) {
    const n = len(this);
    start = adjustOffset(start, n);
    end = end !== undefined ? adjustOffset(end, n) : n;
    return new FastBuffer(apply(taBuffer, this, []), apply(taOffset, this, []) + start, end > start ? end - start : 0);
  },
  toJSON() {
    const n = len(this), data = [];
    for (let i = 0; i < n; i++) defineProperty(data, i, { value: this[i], writable: true, enumerable: true, configurable: true });
    return { type: "Buffer", data: data };
  },
  write(string, offset, length, encoding) {
    if (typeof string !== "string") throw nodeError(TypeErrorI, "ERR_INVALID_ARG_TYPE", "argument must be a string");
    if (offset === undefined) return writeString(this, string, 0, len(this), "utf8");
    if (length === undefined && typeof offset === "string") {
      encoding = offset;
      length = len(this);
      offset = 0;
    } else {
      validateOffset(offset, "offset", 0, len(this));
      const remaining = len(this) - offset;
      if (length === undefined) length = remaining;
      else if (typeof length === "string") {
        encoding = length;
        length = remaining;
      } else {
        validateOffset(length, "length", 0, len(this));
        if (length > remaining) length = remaining;
      }
    }
    if (!encoding) return writeString(this, string, offset, length, "utf8");
    const enc = opsOf(encoding);
    if (enc === undefined) throw unknownEncoding(encoding);
    return writeString(this, string, offset, length, enc);
  },
  fill(value, offset, end, encoding) { return fillBuffer(this, value, offset, end, encoding); },
  indexOf(val, byteOffset, encoding) { return indexOf(this, val, byteOffset, encoding, true); },
  lastIndexOf(val, byteOffset, encoding) { return indexOf(this, val, byteOffset, encoding, false); },
  includes(val, byteOffset, encoding) { return indexOf(this, val, byteOffset, encoding, true) !== -1; },
  copy(target, targetStart, sourceStart, sourceEnd) {
    if (!isUint8Array(this)) throw typeError("source", "an instance of Buffer or Uint8Array", this);
    if (!isUint8Array(target)) throw typeError("target", "an instance of Buffer or Uint8Array", target);
    if (targetStart === undefined) targetStart = 0;
    else {
      targetStart = toInteger(targetStart, 0);
      if (targetStart < 0) throw outOfRange("targetStart", ">= 0", targetStart);
    }
    if (sourceStart === undefined) sourceStart = 0;
    else {
      sourceStart = toInteger(sourceStart, 0);
      if (sourceStart < 0 || sourceStart > len(this)) throw outOfRange("sourceStart", ">= 0 && <= " + len(this), sourceStart);
    }
    if (sourceEnd === undefined) sourceEnd = len(this);
    else {
      sourceEnd = toInteger(sourceEnd, 0);
      if (sourceEnd < 0) throw outOfRange("sourceEnd", ">= 0", sourceEnd);
    }
    if (targetStart >= len(target) || sourceStart >= sourceEnd) return 0;
    return copyBytes(this, target, targetStart, sourceStart, sourceEnd);
  },
  readUInt8(offset = 0) { offset = readAt(this, offset, 1); return this[offset]; },
  readUInt16LE(offset = 0) { offset = readAt(this, offset, 2); return this[offset] + this[offset + 1] * 2 ** 8; },
  readUInt16BE(offset = 0) { offset = readAt(this, offset, 2); return this[offset] * 2 ** 8 + this[offset + 1]; },
  readUInt32LE(offset = 0) {
    offset = readAt(this, offset, 4);
    return this[offset] + this[offset + 1] * 2 ** 8 + this[offset + 2] * 2 ** 16 + this[offset + 3] * 2 ** 24;
  },
  readUInt32BE(offset = 0) {
    offset = readAt(this, offset, 4);
    return this[offset] * 2 ** 24 + this[offset + 1] * 2 ** 16 + this[offset + 2] * 2 ** 8 + this[offset + 3];
  },
  readInt8(offset = 0) { offset = readAt(this, offset, 1); const v = this[offset]; return v | (v & 2 ** 7) * 0x1fffffe; },
  readInt16LE(offset = 0) {
    offset = readAt(this, offset, 2);
    const v = this[offset] + this[offset + 1] * 2 ** 8;
    return v | (v & 2 ** 15) * 0x1fffe;
  },
  readInt16BE(offset = 0) {
    offset = readAt(this, offset, 2);
    const v = this[offset] * 2 ** 8 + this[offset + 1];
    return v | (v & 2 ** 15) * 0x1fffe;
  },
  readInt32LE(offset = 0) {
    offset = readAt(this, offset, 4);
    return this[offset] + this[offset + 1] * 2 ** 8 + this[offset + 2] * 2 ** 16 + (this[offset + 3] << 24);
  },
  readInt32BE(offset = 0) {
    offset = readAt(this, offset, 4);
    return (this[offset] << 24) + this[offset + 1] * 2 ** 16 + this[offset + 2] * 2 ** 8 + this[offset + 3];
  },
};
function writer(size, min, max, bigEndian) {
  return function (value, offset = 0) {
    value = writeAt(this, value, offset, size, min, max);
    for (let i = 0; i < size; i++) {
      const byte = mathFloor(value / 2 ** (8 * i)) & 0xff;
      this[bigEndian ? offset + size - 1 - i : offset + i] = byte;
    }
    return offset + size;
  };
}
const writers = {
  writeUInt8: writer(1, 0, 0xff, false),
  writeUInt16LE: writer(2, 0, 0xffff, false),
  writeUInt16BE: writer(2, 0, 0xffff, true),
  writeUInt32LE: writer(4, 0, 0xffffffff, false),
  writeUInt32BE: writer(4, 0, 0xffffffff, true),
  writeInt8: writer(1, -0x80, 0x7f, false),
  writeInt16LE: writer(2, -0x8000, 0x7fff, false),
  writeInt16BE: writer(2, -0x8000, 0x7fff, true),
  writeInt32LE: writer(4, -0x80000000, 0x7fffffff, false),
  writeInt32BE: writer(4, -0x80000000, 0x7fffffff, true),
};
function adjustOffset(offset, length) {
  offset = mathTrunc(offset);
  if (offset === 0 || numberIsNaN(offset)) return 0;
  if (offset < 0) {
    offset += length;
    return offset > 0 ? offset : 0;
  }
  return offset < length ? offset : length;
}

const proto = FastBuffer.prototype;
function put(name, fn) {
  defineProperty(fn, "name", { value: name, writable: false, enumerable: false, configurable: true });
  defineProperty(proto, name, { value: fn, writable: true, enumerable: true, configurable: true });
}
for (const name in methods) put(name, methods[name]);
for (const name in writers) put(name, writers[name]);
put("slice", function slice(start, end) { return apply(methods.subarray, this, [start, end]); });
// Node's aliases share the function: toLocaleString is toString,
// readUint8 is readUInt8, and so on.
function alias(name, of) {
  defineProperty(proto, name, { value: proto[of], writable: true, enumerable: true, configurable: true });
}
alias("toLocaleString", "toString");
for (const name in methods) {
  if (apply(reExec, /^readUInt/, [name]) !== null) alias("readUint" + apply(strSlice, name, [8]), name);
}
for (const name in writers) {
  if (apply(reExec, /^writeUInt/, [name]) !== null) alias("writeUint" + apply(strSlice, name, [9]), name);
}
defineGlobal("Buffer", Buffer, false);

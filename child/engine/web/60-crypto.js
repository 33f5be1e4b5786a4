// crypto, Crypto, SubtleCrypto and CryptoKey, as Node 20 has them:
// getRandomValues, randomUUID, and subtle's digest (SHA-1, SHA-256,
// SHA-384, SHA-512) and HMAC (importKey "raw" and "jwk", exportKey,
// generateKey, sign, verify). Every other algorithm is refused as one
// Node does not know (NotSupportedError). Entropy and hashing are the
// host's (crypto_host.go): random bytes are drawn when a function is
// called, never here (the heap snapshot would share them), and bytes
// cross to the host as binary strings (one code unit, 0-255, per byte).
const DOMExceptionCtor = web.DOMException;
const bytesOfLatin1 = web.bytes.bytesOfLatin1;
const latin1Of = web.bytes.latin1Of;
const U8 = Uint8Array;
const ArrayBufferCtor = ArrayBuffer;
const isView = ArrayBuffer.isView;
const TypedArrayProto = getPrototypeOf(Uint8Array.prototype);
function getterOf(proto, key) { return getOwnPropertyDescriptor(proto, key).get; }
const taTag = getterOf(TypedArrayProto, Symbol.toStringTag);
const taBuffer = getterOf(TypedArrayProto, "buffer");
const taOffset = getterOf(TypedArrayProto, "byteOffset");
const taLength = getterOf(TypedArrayProto, "byteLength");
const taSet = TypedArrayProto.set;
const dvBuffer = getterOf(DataView.prototype, "buffer");
const dvOffset = getterOf(DataView.prototype, "byteOffset");
const dvLength = getterOf(DataView.prototype, "byteLength");
const abLength = getterOf(ArrayBuffer.prototype, "byteLength");
const sabLength = getterOf(SharedArrayBuffer.prototype, "byteLength");
const charCodeAt = String.prototype.charCodeAt;
const toUpperCase = String.prototype.toUpperCase;
const NumberIntrinsic = Number;
const isFinite = Number.isFinite;
const mathTrunc = Math.trunc;
const iteratorSymbol = Symbol.iterator;
const tagSymbol = Symbol.toStringTag;
const create = Object.create;
const WeakMapIntrinsic = WeakMap;
const weakGet = WeakMap.prototype.get;
const weakHas = WeakMap.prototype.has;
const weakSet = WeakMap.prototype.set;

function dataProperty(obj, key, value) {
  defineProperty(obj, key, { value: value, writable: true, enumerable: true, configurable: true });
}
// list makes a fresh array from values without [[Set]], so no setter a
// guest put on Array.prototype runs.
function list(values) {
  const a = [];
  for (let i = 0; i < values.length; i++) dataProperty(a, i, values[i]);
  return a;
}

// Errors as Node makes them: its internal errors carry a code.
function nodeError(Ctor, message, code) {
  const e = new Ctor(message);
  dataProperty(e, "code", code);
  return e;
}
function domError(message, name) { return new DOMExceptionCtor(message, name); }
function invalidThis(type) { return nodeError(TypeErrorIntrinsic, 'Value of "this" must be of type ' + type, "ERR_INVALID_THIS"); }
function requireArgs(given, want, prefix) {
  if (given < want) {
    throw nodeError(TypeErrorIntrinsic, prefix + ": " + want + (want === 1 ? " argument" : " arguments") +
      " required, but only " + given + " present.", "ERR_MISSING_ARGS");
  }
}

// --- bytes ---

function isShared(buffer) {
  try {
    apply(sabLength, buffer, []);
    return true;
  } catch (e) {
    return false;
  }
}
// bytesOf is a Uint8Array over a BufferSource's bytes (no copy), null
// for no BufferSource, "shared" for a view on a SharedArrayBuffer.
function bytesOf(v) {
  if (isView(v)) {
    const typed = apply(taTag, v, []) !== undefined;
    const buffer = typed ? apply(taBuffer, v, []) : apply(dvBuffer, v, []);
    if (isShared(buffer)) return "shared";
    if (typed) return new U8(buffer, apply(taOffset, v, []), apply(taLength, v, []));
    return new U8(buffer, apply(dvOffset, v, []), apply(dvLength, v, []));
  }
  try {
    apply(abLength, v, []);
  } catch (e) {
    return null;
  }
  return new U8(v);
}
function bufferSource(v, prefix, context) {
  const b = bytesOf(v);
  if (b === "shared") {
    throw nodeError(TypeErrorIntrinsic, prefix + ": " + context + " is a view on a SharedArrayBuffer, which is not allowed.", "ERR_INVALID_ARG_TYPE");
  }
  if (b === null) {
    throw nodeError(TypeErrorIntrinsic, prefix + ": " + context +
      " is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.", "ERR_INVALID_ARG_TYPE");
  }
  return b;
}
function byteLength(b) { return apply(taLength, b, []); }
function copyBytes(b) {
  const c = new U8(byteLength(b));
  apply(taSet, c, [b]);
  return c;
}
// copyToBuffer is a new ArrayBuffer holding b's bytes.
function copyToBuffer(b) {
  const buf = new ArrayBufferCtor(byteLength(b));
  apply(taSet, new U8(buf), [b]);
  return buf;
}
// binary is the binary string of b's bytes, made by the natives
// (Uint8Array.prototype.toBase64, then atob: web.bytes.latin1Of), which
// read b's bytes through its internal slots, never a property a guest
// can replace; twice as fast for 1 MiB as fromCharCode applied to
// 8 KiB views (BENCHMARKS.md, "crypto's bytes through the natives").
function binary(b) { return latin1Of(b); }
// fillFromBinary writes the binary string s's bytes into b, at. The
// natives do it (btoa, then Uint8Array.fromBase64, then set), 20 times
// faster than a loop of charCodeAt here (BENCHMARKS.md, "crypto's bytes
// through the natives").
function fillFromBinary(b, s, at) {
  apply(taSet, b, [bytesOfLatin1(s), at]);
}
function hexValue(c) { return c < 58 ? c - 48 : c - 87; }
// bufferFromHex is a new ArrayBuffer of the host's hex answer.
function bufferFromHex(h) {
  const n = h.length / 2;
  const buf = new ArrayBufferCtor(n);
  const b = new U8(buf);
  for (let i = 0; i < n; i++) {
    b[i] = hexValue(apply(charCodeAt, h, [2 * i])) * 16 + hexValue(apply(charCodeAt, h, [2 * i + 1]));
  }
  return buf;
}
function randomBytes(n) {
  const b = new U8(n);
  for (let at = 0; at < n; at += 65536) {
    const count = n - at < 65536 ? n - at : 65536;
    fillFromBinary(b, hostRandom(StringIntrinsic(count)), at);
  }
  return b;
}

// --- crypto ---

function illegalConstructor() {
  return nodeError(TypeErrorIntrinsic, "Illegal constructor", "ERR_ILLEGAL_CONSTRUCTOR");
}
// webClass makes an interface object that cannot be constructed, with
// its prototype, as Node's classes are.
function webClass(ctor, name, members) {
  const proto = ctor.prototype;
  for (const key in members) {
    const d = getOwnPropertyDescriptor(members, key);
    d.enumerable = true;
    defineProperty(proto, key, d);
  }
  defineProperty(proto, tagSymbol, { value: name, writable: false, enumerable: false, configurable: true });
  return proto;
}

const hexDigits = "0123456789abcdef";
let cryptoObject = null;
let subtleObject = null;
const Crypto = class Crypto { constructor() { throw illegalConstructor(); } };
const cryptoProto = webClass(Crypto, "Crypto", {
  get subtle() {
    if (this !== cryptoObject) throw invalidThis("Crypto");
    return subtleObject;
  },
  // Plain functions, not methods: Node's have a prototype property.
  getRandomValues: function getRandomValues(data) {
    if (this !== cryptoObject) throw invalidThis("Crypto");
    requireArgs(arguments.length, 1, "Failed to execute 'getRandomValues' on 'Crypto'");
    const type = isView(data) ? apply(taTag, data, []) : undefined;
    if (type === undefined || type === "Float32Array" || type === "Float64Array" || type === "Float16Array") {
      throw domError("The data argument must be an integer-type TypedArray", "TypeMismatchError");
    }
    const n = apply(taLength, data, []);
    if (n > 65536) throw domError("The requested length exceeds 65,536 bytes", "QuotaExceededError");
    fillFromBinary(new U8(apply(taBuffer, data, []), apply(taOffset, data, []), n), hostRandom(StringIntrinsic(n)), 0);
    return data;
  },
  randomUUID: function randomUUID() {
    if (this !== cryptoObject) throw invalidThis("Crypto");
    const b = randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // variant 10 (RFC 9562)
    let s = "";
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) s += "-";
      s += hexDigits[b[i] >> 4] + hexDigits[b[i] & 15];
    }
    return s;
  },
});
cryptoObject = create(cryptoProto);

// --- algorithms (Node's normalizeAlgorithm) ---

const normalizePrefix = "Failed to normalize algorithm";
const hashes = ["SHA-1", "SHA-256", "SHA-384", "SHA-512"];
const blockBits = { "SHA-1": 512, "SHA-256": 512, "SHA-384": 1024, "SHA-512": 1024 };
const jwkAlg = { "SHA-1": "HS1", "SHA-256": "HS256", "SHA-384": "HS384", "SHA-512": "HS512" };
// The algorithms each operation knows, and the dictionary its
// parameters are read as (null: the name alone). Arrays, not objects:
// a for-in would see what a guest adds to Object.prototype.
const registered = {
  digest: [["SHA-1", null], ["SHA-256", null], ["SHA-384", null], ["SHA-512", null]],
  sign: [["HMAC", null]],
  verify: [["HMAC", null]],
  importKey: [["HMAC", "HmacImportParams"]],
  generateKey: [["HMAC", "HmacKeyGenParams"]],
  none: [],
};
function toDOMString(v, context) {
  if (typeof v === "symbol") {
    throw nodeError(TypeErrorIntrinsic, normalizePrefix + ": " + context + " is a Symbol and cannot be converted to a string.", "ERR_INVALID_ARG_TYPE");
  }
  return StringIntrinsic(v);
}
function algorithmIdentifier(v) {
  return v !== null && (typeof v === "object" || typeof v === "function") ? v : toDOMString(v, "passed algorithm");
}
function dictionary(v, type) {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" && typeof v !== "function") {
    throw nodeError(TypeErrorIntrinsic, normalizePrefix + ": passed algorithm can not be converted to '" + type + "' because it is not an object.", "ERR_INVALID_ARG_TYPE");
  }
  return v;
}
function required(value, member, type) {
  if (value === undefined) {
    throw nodeError(TypeErrorIntrinsic, normalizePrefix + ": passed algorithm can not be converted to '" + type +
      "' because '" + member + "' is required in '" + type + "'.", "ERR_MISSING_OPTION");
  }
  return value;
}
function unsignedLong(v, context) {
  const x = NumberIntrinsic(v);
  if (!isFinite(x)) throw nodeError(TypeErrorIntrinsic, normalizePrefix + ": " + context + " is not a finite number.", "ERR_INVALID_ARG_TYPE");
  const t = mathTrunc(x) + 0;
  if (t < 0 || t > 4294967295) {
    throw nodeError(TypeErrorIntrinsic, normalizePrefix + ": " + context + " is outside the expected range of 0 to 4294967295.", "ERR_OUT_OF_RANGE");
  }
  return t;
}
function normalize(alg, op) {
  if (typeof alg === "string") alg = { name: alg };
  const name = toDOMString(required(dictionary(alg, "Algorithm").name, "name", "Algorithm"), "'name' of 'Algorithm' (passed algorithm)");
  const known = registered[op];
  const upper = apply(toUpperCase, name, []);
  let canonical, type;
  for (let i = 0; i < known.length; i++) {
    if (apply(toUpperCase, known[i][0], []) === upper) {
      canonical = known[i][0];
      type = known[i][1];
    }
  }
  if (canonical === undefined) throw domError("Unrecognized algorithm name", "NotSupportedError");
  if (type === null) return { name: canonical };
  // HmacImportParams and HmacKeyGenParams: name, then hash, length.
  const d = dictionary(alg, type);
  toDOMString(required(d.name, "name", type), "'name' of '" + type + "' (passed algorithm)");
  const hash = algorithmIdentifier(required(d.hash, "hash", type));
  const lengthValue = d.length;
  const length = lengthValue === undefined ? undefined : unsignedLong(lengthValue, "'length' of '" + type + "' (passed algorithm)");
  return { name: canonical, hash: normalize(hash, "digest"), length: length };
}

// --- keys ---

// keys holds each CryptoKey's internals: what a guest sees through the
// getters, the key's bytes, and its binary string for the host.
const keys = new WeakMapIntrinsic();
const CryptoKey = class CryptoKey { constructor() { throw illegalConstructor(); } };
function slotsOf(key) {
  const slots = apply(weakGet, keys, [key]);
  if (slots === undefined) throw invalidThis("CryptoKey");
  return slots;
}
const cryptoKeyProto = webClass(CryptoKey, "CryptoKey", {
  get type() { slotsOf(this); return "secret"; },
  get extractable() { return slotsOf(this).extractable; },
  get algorithm() { return slotsOf(this).algorithm; },
  get usages() { return slotsOf(this).usages; },
});
// newKey makes a CryptoKey. What the guest sees (algorithm, usages) is
// its own to change; the key works from private copies (hash, uses).
function newKey(bytes, algorithm, usages, extractable) {
  const key = create(cryptoKeyProto);
  apply(weakSet, keys, [key, {
    bytes: bytes, binary: binary(bytes), extractable: extractable,
    algorithm: algorithm, usages: usages, name: algorithm.name, hash: algorithm.hash.name, uses: list(usages),
  }]);
  return key;
}
function isKey(v) {
  return v !== null && typeof v === "object" && apply(weakHas, keys, [v]);
}
const keyUsages = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];
function inList(items, v) {
  for (let i = 0; i < items.length; i++) if (items[i] === v) return true;
  return false;
}
// usagesOf converts a sequence<KeyUsage> (the guest's iterator runs, as in
// Node); anyString takes any string (a JWK's key_ops).
function usagesOf(v, prefix, context, anyString) {
  if (v === null || typeof v !== "object" || typeof v[iteratorSymbol] !== "function") {
    throw nodeError(TypeErrorIntrinsic, prefix + ": " + context + " can not be converted to sequence.", "ERR_INVALID_ARG_TYPE");
  }
  const out = [];
  let i = 0;
  for (const u of v) {
    const s = StringIntrinsic(u);
    if (!anyString && !inList(keyUsages, s)) {
      throw nodeError(TypeErrorIntrinsic, prefix + ": " + context + ", index " + i + " value '" + s +
        "' is not a valid enum value of type KeyUsage.", "ERR_INVALID_ARG_VALUE");
    }
    dataProperty(out, i, s);
    i++;
  }
  return out;
}
function checkHmacUsages(usages) {
  for (let i = 0; i < usages.length; i++) {
    if (usages[i] !== "sign" && usages[i] !== "verify") throw domError("Unsupported key usage for an HMAC key", "SyntaxError");
  }
}
// unique is usages without repeats, in first-seen order (Node's Set).
function unique(usages) {
  const out = [];
  for (let i = 0; i < usages.length; i++) if (!inList(out, usages[i])) dataProperty(out, out.length, usages[i]);
  return out;
}
function keyFormat(v, prefix) {
  const s = StringIntrinsic(v);
  if (s !== "raw" && s !== "pkcs8" && s !== "spki" && s !== "jwk") {
    throw nodeError(TypeErrorIntrinsic, prefix + ": 1st argument value '" + s + "' is not a valid enum value of type KeyFormat.", "ERR_INVALID_ARG_VALUE");
  }
  return s;
}
function cryptoKeyArg(v, prefix, context) {
  if (!isKey(v)) throw nodeError(TypeErrorIntrinsic, prefix + ": " + context + " is not of type CryptoKey.", "ERR_INVALID_ARG_TYPE");
  return v;
}

// --- base64url, for JWK ---

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
function base64urlEncode(b) {
  const len = byteLength(b);
  let s = "";
  for (let i = 0; i < len; i += 3) {
    const n = b[i] << 16 | (i + 1 < len ? b[i + 1] << 8 : 0) | (i + 2 < len ? b[i + 2] : 0);
    s += b64[n >> 18 & 63] + b64[n >> 12 & 63];
    if (i + 1 < len) s += b64[n >> 6 & 63];
    if (i + 2 < len) s += b64[n & 63];
  }
  return s;
}
// base64Decode decodes as Node's Buffer.from(s, "base64") does: both
// alphabets, other characters skipped, up to the first "=".
function base64Decode(s) {
  const sextets = [];
  for (let i = 0; i < s.length; i++) {
    const c = apply(charCodeAt, s, [i]);
    let v = -1;
    if (c >= 65 && c <= 90) v = c - 65;
    else if (c >= 97 && c <= 122) v = c - 71;
    else if (c >= 48 && c <= 57) v = c + 4;
    else if (c === 43 || c === 45) v = 62;
    else if (c === 47 || c === 95) v = 63;
    else if (c === 61) break;
    if (v >= 0) dataProperty(sextets, sextets.length, v);
  }
  const out = new U8((sextets.length * 6) >> 3);
  let acc = 0, bits = 0, at = 0;
  for (let i = 0; i < sextets.length; i++) {
    acc = (acc << 6 | sextets[i]) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = acc >> bits & 255;
    }
  }
  return out;
}

web.crypto = {
  cryptoObject: cryptoObject, Crypto: Crypto, CryptoKey: CryptoKey, isKey: isKey, slotsOf: slotsOf, newKey: newKey,
  usagesOf: usagesOf, checkHmacUsages: checkHmacUsages, unique: unique, keyFormat: keyFormat, cryptoKeyArg: cryptoKeyArg,
  bufferSource: bufferSource, copyBytes: copyBytes, copyToBuffer: copyToBuffer, byteLength: byteLength, binary: binary, bufferFromHex: bufferFromHex, randomBytes: randomBytes,
  algorithmIdentifier: algorithmIdentifier, normalize: normalize, webClass: webClass, illegalConstructor: illegalConstructor,
  invalidThis: invalidThis, requireArgs: requireArgs, nodeError: nodeError, domError: domError, list: list,
  base64urlEncode: base64urlEncode, base64Decode: base64Decode, blockBits: blockBits, jwkAlg: jwkAlg, hashes: hashes,
  inList: inList, dataProperty: dataProperty,
  setSubtle: function (s) { subtleObject = s; },
};

// SubtleCrypto (crypto.subtle) and the crypto globals. Each method is an
// async function, as Node's are: whatever it throws rejects its promise.
// The order of the checks is Node 20's (this, argument count, WebIDL
// conversions, algorithm, key), so the same bad call fails the same way.
const c = web.crypto;
const create = Object.create;
const SubtleCrypto = class SubtleCrypto { constructor() { throw c.illegalConstructor(); } };
function checkThis(self, method, given, want) {
  if (self !== subtle) throw c.invalidThis("SubtleCrypto");
  const prefix = "Failed to execute '" + method + "' on 'SubtleCrypto'";
  c.requireArgs(given, want, prefix);
  return prefix;
}
// unsupported is an operation no algorithm of Warden's has (encrypt,
// deriveBits, wrapKey, ...): every algorithm is unrecognised for it.
function unsupported(self, method, given, want, algorithm) {
  checkThis(self, method, given, want);
  c.normalize(c.algorithmIdentifier(algorithm), "none");
}
function hmacUse(algorithm, key, usage) {
  const alg = c.normalize(algorithm, usage);
  const slots = c.slotsOf(key);
  if (!c.inList(slots.uses, usage) || alg.name !== slots.name) {
    throw c.domError("Unable to use this key to " + usage, "InvalidAccessError");
  }
  return slots;
}
function hmacImport(format, keyData, alg, extractable, usages) {
  c.checkHmacUsages(usages);
  let bytes;
  if (format === "raw") {
    const bits = c.byteLength(keyData) * 8;
    if (bits === 0 || alg.length === 0) throw c.domError("Zero-length key is not supported", "DataError");
    if (alg.length !== undefined && alg.length !== bits) throw c.domError("Invalid key length", "DataError");
    bytes = c.copyBytes(keyData);
  } else if (format === "jwk") {
    bytes = jwkBytes(keyData, alg, extractable, usages);
  } else {
    throw c.domError("Unable to import HMAC key with format " + format, "Error");
  }
  const algorithm = { name: "HMAC", hash: { name: alg.hash.name }, length: c.byteLength(bytes) * 8 };
  return c.newKey(bytes, algorithm, usages, extractable);
}
// jwkBytes checks a JWK as Node's HMAC import does, and decodes its k.
function jwkBytes(jwk, alg, extractable, usages) {
  const kty = jwk.kty === undefined ? undefined : StringIntrinsic(jwk.kty);
  if (!kty) throw c.domError("Invalid keyData", "DataError");
  if (kty !== "oct") throw c.domError('Invalid JWK "kty" Parameter', "DataError");
  const use = jwk.use;
  if (usages.length > 0 && use !== undefined && StringIntrinsic(use) !== "sig") throw c.domError('Invalid JWK "use" Parameter', "DataError");
  const ops = jwk.key_ops;
  if (ops !== undefined) {
    const list = c.usagesOf(ops, "Failed to execute 'importKey' on 'SubtleCrypto'", "'key_ops' of 'JsonWebKey' (2nd argument)", true);
    for (let i = 0; i < list.length; i++) {
      for (let j = 0; j < i; j++) if (list[i] === list[j]) throw c.domError("Duplicate key operation", "DataError");
    }
    for (let i = 0; i < usages.length; i++) {
      if (!c.inList(list, usages[i])) throw c.domError("Key operations and usage mismatch", "DataError");
    }
  }
  if (jwk.ext !== undefined && jwk.ext === false && extractable === true) {
    throw c.domError('JWK "ext" Parameter and extractable mismatch', "DataError");
  }
  if (jwk.alg !== undefined && StringIntrinsic(jwk.alg) !== c.jwkAlg[alg.hash.name]) {
    throw c.domError('JWK "alg" does not match the requested algorithm', "DataError");
  }
  const k = jwk.k;
  if (k === undefined) throw c.domError("Invalid keyData", "DataError");
  return c.base64Decode(StringIntrinsic(k));
}

const subtleProto = c.webClass(SubtleCrypto, "SubtleCrypto", {
  async encrypt(algorithm, key, data) { unsupported(this, "encrypt", arguments.length, 3, algorithm); },
  async decrypt(algorithm, key, data) { unsupported(this, "decrypt", arguments.length, 3, algorithm); },
  async sign(algorithm, key, data) {
    const prefix = checkThis(this, "sign", arguments.length, 3);
    algorithm = c.algorithmIdentifier(algorithm);
    c.cryptoKeyArg(key, prefix, "2nd argument");
    const bytes = c.bufferSource(data, prefix, "3rd argument");
    const slots = hmacUse(algorithm, key, "sign");
    return c.bufferFromHex(hostHmacSign(slots.hash, slots.binary, c.binary(bytes)));
  },
  async verify(algorithm, key, signature, data) {
    const prefix = checkThis(this, "verify", arguments.length, 4);
    algorithm = c.algorithmIdentifier(algorithm);
    c.cryptoKeyArg(key, prefix, "2nd argument");
    const sig = c.bufferSource(signature, prefix, "3rd argument");
    const bytes = c.bufferSource(data, prefix, "4th argument");
    const slots = hmacUse(algorithm, key, "verify");
    return hostHmacVerify(slots.hash, slots.binary, c.binary(bytes), c.binary(sig)) === "1";
  },
  async digest(algorithm, data) {
    const prefix = checkThis(this, "digest", arguments.length, 2);
    algorithm = c.algorithmIdentifier(algorithm);
    const bytes = c.bufferSource(data, prefix, "2nd argument");
    const alg = c.normalize(algorithm, "digest");
    return c.bufferFromHex(hostDigest(alg.name, c.binary(bytes)));
  },
  async generateKey(algorithm, extractable, keyUsages) {
    const prefix = checkThis(this, "generateKey", arguments.length, 3);
    algorithm = c.algorithmIdentifier(algorithm);
    extractable = !!extractable;
    const usages = c.usagesOf(keyUsages, prefix, "3rd argument");
    const alg = c.normalize(algorithm, "generateKey");
    const length = alg.length === undefined ? c.blockBits[alg.hash.name] : alg.length;
    if (length % 8 !== 0) {
      throw c.nodeError(TypeErrorIntrinsic, "The property 'algorithm.length' must be a multiple of 8. Received " + length, "ERR_INVALID_ARG_VALUE");
    }
    const set = c.unique(usages);
    c.checkHmacUsages(set);
    if (length === 0 || length > 2147483647) {
      throw c.domError("The operation failed for an operation-specific reason", "OperationError");
    }
    const key = c.newKey(c.randomBytes(length / 8), { name: "HMAC", length: length, hash: { name: alg.hash.name } }, set, extractable);
    if (set.length === 0) throw c.domError("Usages cannot be empty when creating a key.", "SyntaxError");
    return key;
  },
  async deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, keyUsages) {
    unsupported(this, "deriveKey", arguments.length, 5, algorithm);
  },
  async deriveBits(algorithm, baseKey) { unsupported(this, "deriveBits", arguments.length, 2, algorithm); },
  async importKey(format, keyData, algorithm, extractable, keyUsages) {
    const prefix = checkThis(this, "importKey", arguments.length, 4);
    format = c.keyFormat(format, prefix);
    let data;
    if (format === "jwk") {
      if (keyData === null || (typeof keyData !== "object" && typeof keyData !== "function")) {
        if (keyData !== undefined) {
          throw c.nodeError(TypeErrorIntrinsic, prefix + ": 2nd argument can not be converted to a dictionary", "ERR_INVALID_ARG_TYPE");
        }
        data = {};
      } else {
        data = keyData;
      }
    } else {
      data = c.bufferSource(keyData, prefix, "2nd argument");
    }
    algorithm = c.algorithmIdentifier(algorithm);
    extractable = !!extractable;
    const usages = c.usagesOf(keyUsages, prefix, "5th argument");
    const alg = c.normalize(algorithm, "importKey");
    const key = hmacImport(format, data, alg, extractable, usages);
    if (usages.length === 0) throw c.domError("Usages cannot be empty when importing a secret key.", "SyntaxError");
    return key;
  },
  async exportKey(format, key) {
    const prefix = checkThis(this, "exportKey", arguments.length, 2);
    format = c.keyFormat(format, prefix);
    c.cryptoKeyArg(key, prefix, "2nd argument");
    const slots = c.slotsOf(key);
    if (!slots.extractable) throw c.domError("key is not extractable", "InvalidAccessException");
    if (format === "raw") return c.copyToBuffer(slots.bytes);
    if (format === "jwk") {
      return {
        key_ops: c.list(slots.uses), ext: slots.extractable, kty: "oct",
        k: c.base64urlEncode(slots.bytes), alg: c.jwkAlg[slots.hash],
      };
    }
    // Node 20 names spki "raw" in this message.
    throw c.domError("Unable to export a " + (format === "spki" ? "raw" : format) + " HMAC secret key", "InvalidAccessError");
  },
  async wrapKey(format, key, wrappingKey, wrapAlgorithm) {
    unsupported(this, "wrapKey", arguments.length, 4, wrapAlgorithm);
  },
  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, keyUsages) {
    unsupported(this, "unwrapKey", arguments.length, 7, unwrapAlgorithm);
  },
});
const subtle = create(subtleProto);
c.setSubtle(subtle);

defineGlobal("crypto", c.cryptoObject, true);
defineGlobal("Crypto", c.Crypto, false);
defineGlobal("CryptoKey", c.CryptoKey, false);
defineGlobal("SubtleCrypto", SubtleCrypto, false);

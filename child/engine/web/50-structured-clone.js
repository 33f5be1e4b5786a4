// structuredClone, as Node 20's (V8's serializer) clones: the same kinds
// of value, the same DataCloneError messages, getters run in the same
// depth-first order, cycles and shared references kept.
//
// The walk is a loop over an explicit stack of frames, not a recursion,
// so a value as deep as memory allows clones without exhausting the
// stack. Everything it builds for itself has a null prototype or is made
// by defineProperty, so no setter a guest put on Object.prototype or
// Array.prototype runs. The kind of an object is read from its internal
// slots (the intrinsics' brand checks), guessed first from its
// prototype; an object whose prototype is Object.prototype or null is
// taken as plain (V8 would still see a Map given Object.prototype as its
// prototype). A Proxy cannot be told from its target in JavaScript: it
// clones as the object its traps present, where V8 refuses it.
const DOMExceptionIntrinsic = web.DOMException;
const MapIntrinsic = Map;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapForEach = Map.prototype.forEach;
const mapSize = getOwnPropertyDescriptor(Map.prototype, "size").get;
const SetIntrinsic = Set;
const setAdd = Set.prototype.add;
const setHas = Set.prototype.has;
const setForEach = Set.prototype.forEach;
const setSize = getOwnPropertyDescriptor(Set.prototype, "size").get;
const ArrayIntrinsic = Array;
const arrayIsArray = Array.isArray;
const objectKeys = Object.keys;
const objectHasOwn = Object.hasOwn;
const setPrototypeOf = Object.setPrototypeOf;
const isError = Error.isError;
const DateIntrinsic = Date;
const dateGetTime = Date.prototype.getTime;
const RegExpIntrinsic = RegExp;
const regexpSource = getOwnPropertyDescriptor(RegExp.prototype, "source").get;
const regexpFlagNames = ["hasIndices", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky"];
const regexpFlagLetters = ["d", "g", "i", "m", "s", "u", "v", "y"];
const regexpFlagGetters = [];
for (let i = 0; i < regexpFlagNames.length; i++) {
  const d = getOwnPropertyDescriptor(RegExp.prototype, regexpFlagNames[i]);
  regexpFlagGetters[i] = d === undefined ? undefined : d.get;
}
const ArrayBufferIntrinsic = ArrayBuffer;
const abProto = ArrayBuffer.prototype;
const abByteLength = getOwnPropertyDescriptor(abProto, "byteLength").get;
const abDetached = getOwnPropertyDescriptor(abProto, "detached").get;
const abResizable = getOwnPropertyDescriptor(abProto, "resizable").get;
const abMaxByteLength = getOwnPropertyDescriptor(abProto, "maxByteLength").get;
const abTransfer = abProto.transfer;
const sabByteLength = typeof SharedArrayBuffer === "function"
  ? getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength").get : undefined;
const Uint8ArrayIntrinsic = Uint8Array;
const typedArrayProto = getPrototypeOf(Uint8Array.prototype);
const taTag = getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;
const taBuffer = getOwnPropertyDescriptor(typedArrayProto, "buffer").get;
const taByteOffset = getOwnPropertyDescriptor(typedArrayProto, "byteOffset").get;
const taLength = getOwnPropertyDescriptor(typedArrayProto, "length").get;
const taSet = typedArrayProto.set;
const DataViewIntrinsic = DataView;
const dvBuffer = getOwnPropertyDescriptor(DataView.prototype, "buffer").get;
const dvByteOffset = getOwnPropertyDescriptor(DataView.prototype, "byteOffset").get;
const dvByteLength = getOwnPropertyDescriptor(DataView.prototype, "byteLength").get;
const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const booleanValueOf = Boolean.prototype.valueOf;
const bigintValueOf = BigInt.prototype.valueOf;
const symbolValueOf = Symbol.prototype.valueOf;
const symbolToString = Symbol.prototype.toString;
const ObjectIntrinsic = Object;
const weakMapHas = WeakMap.prototype.has;
const weakSetHas = WeakSet.prototype.has;
const weakRefDeref = WeakRef.prototype.deref;
const registryUnregister = FinalizationRegistry.prototype.unregister;
const promiseThen = Promise.prototype.then;
const globalObject = globalThis;
const iteratorSymbol = Symbol.iterator;
const strEndsWith = String.prototype.endsWith;

const typedArrays = { __proto__: null };
const typedArrayNames = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
  "Uint32Array", "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"];
for (let i = 0; i < typedArrayNames.length; i++) {
  if (typeof globalThis[typedArrayNames[i]] === "function") typedArrays[typedArrayNames[i]] = globalThis[typedArrayNames[i]];
}
// V8 keeps an error's prototype when its name is one of these; any other
// becomes an Error.
const errorTypes = {
  __proto__: null, Error: Error, EvalError: EvalError, RangeError: RangeError, ReferenceError: ReferenceError,
  SyntaxError: SyntaxError, TypeError: TypeError, URIError: URIError,
};

// protoKinds is the first guess of an object's kind, from its prototype
// (prototype, kind, ...). Not a Map: a Map filled at load would hold its
// buckets in the order of the hash seed the heap snapshot reseeds.
const protoKinds = [Object.prototype, "object", Array.prototype, "object", Map.prototype, "map", Set.prototype, "set",
  Date.prototype, "date", RegExp.prototype, "regexp", abProto, "arraybuffer", DataView.prototype, "dataview",
  Number.prototype, "number", String.prototype, "string", Boolean.prototype, "boolean", BigInt.prototype, "bigint"];
function protoKind(proto) {
  for (let i = 0; i < protoKinds.length; i += 2) {
    if (protoKinds[i] === proto) return protoKinds[i + 1];
  }
  return undefined;
}

function brand(getter, v) {
  try {
    apply(getter, v, []);
    return true;
  } catch (e) {
    return false;
  }
}
function brandArg(method, v, arg) {
  try {
    apply(method, v, [arg]);
    return true;
  } catch (e) {
    return false;
  }
}
// is tells whether v (an object) is of kind, by its internal slots.
function is(kind, v) {
  switch (kind) {
    case "map": return brand(mapSize, v);
    case "set": return brand(setSize, v);
    case "date": return brand(dateGetTime, v);
    case "regexp": return brand(regexpSource, v);
    case "arraybuffer": return brand(abByteLength, v);
    case "sharedarraybuffer": return sabByteLength !== undefined && brand(sabByteLength, v);
    case "dataview": return brand(dvByteLength, v);
    case "number": return brand(numberValueOf, v);
    case "string": return brand(stringValueOf, v);
    case "boolean": return brand(booleanValueOf, v);
    case "bigint": return brand(bigintValueOf, v);
    case "symbol": return brand(symbolValueOf, v);
    case "WeakMap": return brandArg(weakMapHas, v, {});
    case "WeakSet": return brandArg(weakSetHas, v, {});
    case "WeakRef": return brand(weakRefDeref, v);
    case "FinalizationRegistry": return brandArg(registryUnregister, v, {});
    case "Promise": return brandArg(promiseThen, v, undefined);
  }
  return false;
}
const slowKinds = ["map", "set", "date", "regexp", "arraybuffer", "sharedarraybuffer", "dataview", "number", "string",
  "boolean", "bigint", "symbol", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Promise"];

function kindOf(v, cache) {
  if (arrayIsArray(v)) return "array";
  if (apply(isError, undefined, [v])) return "error";
  if (apply(taTag, v, []) !== undefined) return "typedarray";
  if (v === globalObject) return "Object";
  const proto = getPrototypeOf(v);
  if (proto === null) return "object";
  let guess = protoKind(proto);
  if (guess === "object") return "object";
  if (guess === undefined) guess = apply(mapGet, cache, [proto]);
  if (guess !== undefined && (guess === "object" || is(guess, v))) return guess;
  let kind = "object";
  for (let i = 0; i < slowKinds.length; i++) {
    if (is(slowKinds[i], v)) { kind = slowKinds[i]; break; }
  }
  apply(mapSet, cache, [proto, kind]);
  return kind;
}

function dataCloneError(message) {
  return new DOMExceptionIntrinsic(message, "DataCloneError");
}
function notCloneable(v) {
  if (typeof v === "symbol") return dataCloneError(apply(symbolToString, v, []) + " could not be cloned.");
  let text = apply(fnToString, v, []);
  if (apply(strEndsWith, text, ["{\n    [native code]\n}"])) {
    text = apply(strSlice, text, [0, text.length - 20]) + "{ [native code] }";
  }
  return dataCloneError(text + " could not be cloned.");
}
function detachedError() {
  return dataCloneError("An ArrayBuffer is detached and could not be cloned.");
}
function data(value) {
  return { __proto__: null, value: value, writable: true, enumerable: true, configurable: true };
}
function hidden(value) {
  return { __proto__: null, value: value, writable: true, enumerable: false, configurable: true };
}
function list() {
  return setPrototypeOf([], null);
}

function copyBuffer(b) {
  if (apply(abDetached, b, [])) throw detachedError();
  const length = apply(abByteLength, b, []);
  const copy = apply(abResizable, b, [])
    ? new ArrayBufferIntrinsic(length, { __proto__: null, maxByteLength: apply(abMaxByteLength, b, []) })
    : new ArrayBufferIntrinsic(length);
  apply(taSet, new Uint8ArrayIntrinsic(copy), [new Uint8ArrayIntrinsic(b)]);
  return copy;
}

// The clone's state: the clones made so far (memo), the prototypes whose
// kind was found (cache), and the frames still to fill (top).
function newState() {
  return { memo: new MapIntrinsic(), cache: new MapIntrinsic(), top: null };
}
function push(st, kind, src, dst, items) {
  st.top = { kind: kind, src: src, dst: dst, items: items, i: 0, out: null, next: st.top };
}

// cloneValue returns v's clone: a primitive itself, an object's clone
// (made empty, its contents left to a frame on st.top).
function cloneValue(st, v) {
  if (typeof v === "function" || typeof v === "symbol") throw notCloneable(v);
  if (v === null || typeof v !== "object") return v;
  const seen = apply(mapGet, st.memo, [v]);
  if (seen !== undefined) return seen;
  const kind = kindOf(v, st.cache);
  const c = shell(st, kind, v);
  apply(mapSet, st.memo, [v, c]);
  fill(st, kind, v, c);
  return c;
}

// shell makes the clone of v before its contents.
function shell(st, kind, v) {
  switch (kind) {
    case "object": return {};
    case "array": return new ArrayIntrinsic(v.length);
    case "error": return errorShell(v);
    case "map": return new MapIntrinsic();
    case "set": return new SetIntrinsic();
    case "date": return new DateIntrinsic(apply(dateGetTime, v, []));
    case "regexp": {
      let flags = "";
      for (let i = 0; i < regexpFlagGetters.length; i++) {
        if (regexpFlagGetters[i] !== undefined && apply(regexpFlagGetters[i], v, [])) flags += regexpFlagLetters[i];
      }
      return new RegExpIntrinsic(apply(regexpSource, v, []), flags);
    }
    case "arraybuffer": return copyBuffer(v);
    case "sharedarraybuffer": return v; // the memory is shared, as Node shares it
    case "typedarray": {
      const buffer = cloneValue(st, apply(taBuffer, v, []));
      return new typedArrays[apply(taTag, v, [])](buffer, apply(taByteOffset, v, []), apply(taLength, v, []));
    }
    case "dataview": {
      const buffer = cloneValue(st, apply(dvBuffer, v, []));
      return new DataViewIntrinsic(buffer, apply(dvByteOffset, v, []), apply(dvByteLength, v, []));
    }
    case "number": return ObjectIntrinsic(apply(numberValueOf, v, []));
    case "string": return ObjectIntrinsic(apply(stringValueOf, v, []));
    case "boolean": return ObjectIntrinsic(apply(booleanValueOf, v, []));
    case "bigint": return ObjectIntrinsic(apply(bigintValueOf, v, []));
    case "symbol": throw dataCloneError("[object Symbol] could not be cloned.");
  }
  // WeakMap, WeakSet, WeakRef, FinalizationRegistry, Promise, the global.
  throw dataCloneError("#<" + kind + "> could not be cloned.");
}

// errorShell reads what V8 reads of an error, in its order: name (any
// getter runs), message (an own data property), then, in the frame,
// cause (likewise) and stack.
function errorShell(v) {
  const name = `${v.name}`;
  const Ctor = errorTypes[name] !== undefined ? errorTypes[name] : errorTypes.Error;
  const e = new Ctor();
  defineProperty(e, "stack", hidden(undefined));
  const m = getOwnPropertyDescriptor(v, "message");
  if (m !== undefined && objectHasOwn(m, "value")) defineProperty(e, "message", hidden(`${m.value}`));
  return e;
}

// fill leaves a frame for what the clone c of v still needs.
function fill(st, kind, v, c) {
  if (kind === "object" || kind === "array") {
    const keys = objectKeys(v);
    if (keys.length > 0) push(st, "keys", v, c, keys);
  } else if (kind === "map") {
    const items = list();
    apply(mapForEach, v, [function (value, key) { items[items.length] = key; items[items.length] = value; }]);
    if (items.length > 0) push(st, "map", v, c, items);
  } else if (kind === "set") {
    const items = list();
    apply(setForEach, v, [function (value) { items[items.length] = value; }]);
    if (items.length > 0) push(st, "set", v, c, items);
  } else if (kind === "error") {
    push(st, "error", v, c, null);
  }
}

// step advances the frame f until it leaves a new frame above it (then
// true) or is done (false).
function step(st, f) {
  const items = f.items;
  if (f.kind === "keys") {
    while (f.i < items.length) {
      const key = items[f.i];
      f.i++;
      // A property an earlier getter deleted is skipped, as V8 does.
      if (!objectHasOwn(f.src, key)) continue;
      const c = cloneValue(st, f.src[key]);
      defineProperty(f.dst, key, data(c));
      if (st.top !== f) return true;
    }
    return false;
  }
  if (f.kind === "map" || f.kind === "set") {
    if (f.out === null) f.out = list();
    while (f.i < items.length) {
      const c = cloneValue(st, items[f.i]);
      f.out[f.i] = c;
      f.i++;
      if (st.top !== f) return true;
    }
    const out = f.out;
    if (f.kind === "map") {
      for (let i = 0; i < out.length; i += 2) apply(mapSet, f.dst, [out[i], out[i + 1]]);
    } else {
      for (let i = 0; i < out.length; i++) apply(setAdd, f.dst, [out[i]]);
    }
    return false;
  }
  // An error: its cause, then its stack.
  if (f.i === 0) {
    f.i = 1;
    const d = getOwnPropertyDescriptor(f.src, "cause");
    if (d !== undefined && objectHasOwn(d, "value")) {
      defineProperty(f.dst, "cause", hidden(cloneValue(st, d.value)));
      if (st.top !== f) return true;
    }
  }
  const stack = f.src.stack;
  if (typeof stack === "string") defineProperty(f.dst, "stack", hidden(stack));
  return false;
}

function cloneGraph(value) {
  const st = newState();
  const result = cloneValue(st, value);
  while (st.top !== null) {
    const f = st.top;
    if (!step(st, f) && st.top === f) st.top = f.next;
  }
  return result;
}

function nodeTypeError(code, message) {
  const e = new TypeErrorIntrinsic(message);
  defineProperty(e, "code", hidden(code));
  return e;
}

// transferList reads options.transfer as Node does: ArrayBuffers only,
// each once.
function transferList(options) {
  const buffers = list();
  if (options === undefined || options === null) return buffers;
  if (typeof options !== "object" && typeof options !== "function") {
    throw nodeTypeError("ERR_INVALID_ARG_TYPE", "The options argument must be either an object or undefined");
  }
  const transfer = options.transfer;
  if (transfer === undefined || transfer === null) return buffers;
  if (typeof transfer !== "object" && typeof transfer !== "function") {
    throw nodeTypeError("ERR_INVALID_ARG_TYPE", "Optional transferList argument must be an iterable");
  }
  // An object that is not iterable transfers nothing, as in Node.
  if (typeof transfer[iteratorSymbol] !== "function") return buffers;
  const seen = new SetIntrinsic();
  for (const b of transfer) {
    if (b === null || typeof b !== "object" || !brand(abByteLength, b)) {
      throw nodeTypeError("ERR_INVALID_TRANSFER_OBJECT", "Found invalid object in transferList");
    }
    if (apply(setHas, seen, [b])) throw dataCloneError("Transfer list contains duplicate ArrayBuffer");
    apply(setAdd, seen, [b]);
    buffers[buffers.length] = b;
  }
  for (let i = 0; i < buffers.length; i++) {
    if (apply(abDetached, buffers[i], [])) throw detachedError();
  }
  return buffers;
}

defineGlobal("structuredClone", builtin("structuredClone", {
  structuredClone() {
    if (arguments.length === 0) throw nodeTypeError("ERR_MISSING_ARGS", "The value argument must be specified");
    const buffers = transferList(arguments[1]);
    const result = cloneGraph(arguments[0]);
    // The clone holds copies; transferring detaches the sources, which
    // is all a guest can observe of the move.
    for (let i = 0; i < buffers.length; i++) apply(abTransfer, buffers[i], []);
    return result;
  },
}.structuredClone), true);

// queueMicrotask and performance.
//
// queueMicrotask puts its callback on the engine's own job queue, the one
// promise jobs share, so callbacks and promise reactions interleave in
// the order they were queued, as in Node. A callback that throws ends the
// execution (web.reportUncaught), as an uncaught exception ends Node.
//
// performance has now(), timeOrigin and toJSON(). Its clock has a
// millisecond's resolution, no finer than Date.now() already gives (see
// RATIONALE.md, "Why does performance.now() count whole milliseconds?"),
// and its origin is taken at the execution's first use: never at load,
// which the heap snapshot would freeze.
const enqueueJob = web.enqueueJob;
const monotonicNow = web.monotonicNow;
const dateNow = Date.now;
const mathFloor = Math.floor;
const objectCreate = Object.create;
const toStringTag = Symbol.toStringTag;
const symbolToString = Symbol.prototype.toString;
const bigintToString = BigInt.prototype.toString;
const reportUncaught = web.reportUncaught;

// received describes a value as Node's ERR_INVALID_ARG_TYPE messages do
// ("Received type number (1)", "Received an instance of Map").
function received(value) {
  if (value === null || value === undefined) return "Received " + value;
  if (typeof value === "function") {
    const n = getOwnPropertyDescriptor(value, "name");
    return "Received function " + (n && typeof n.value === "string" ? n.value : "");
  }
  if (typeof value === "object") {
    let ctor;
    try {
      for (let o = value; o !== null; o = getPrototypeOf(o)) {
        const d = getOwnPropertyDescriptor(o, "constructor");
        if (d !== undefined) { ctor = d.value; break; }
      }
    } catch (e) { ctor = undefined; }
    if (typeof ctor === "function") {
      const n = getOwnPropertyDescriptor(ctor, "name");
      if (n && typeof n.value === "string" && n.value !== "") return "Received an instance of " + n.value;
    }
    return getPrototypeOf(value) === null ? "Received [Object: null prototype] {}" : "Received an instance of Object";
  }
  let shown;
  if (typeof value === "string") {
    shown = "'" + (value.length > 28 ? apply(strSlice, value, [0, 25]) + "..." : value) + "'";
    return "Received type string (" + shown + ")";
  }
  if (typeof value === "symbol") shown = apply(symbolToString, value, []);
  else if (typeof value === "bigint") shown = apply(bigintToString, value, []) + "n";
  else if (value === 0 && 1 / value < 0) shown = "-0";
  else shown = StringIntrinsic(value);
  if (shown.length > 28) shown = apply(strSlice, shown, [0, 25]) + "...";
  return "Received type " + typeof value + " (" + shown + ")";
}

// invalidArgType is Node's ERR_INVALID_ARG_TYPE for a function argument.
function invalidArgType(name, value) {
  const e = new TypeErrorIntrinsic("The \"" + name + "\" argument must be of type function. " + received(value));
  defineProperty(e, "code", { __proto__: null, value: "ERR_INVALID_ARG_TYPE", writable: true, enumerable: false, configurable: true });
  return e;
}
web.received = received;

function runCallback(callback) {
  try {
    apply(callback, undefined, []);
  } catch (e) {
    reportUncaught(e);
  }
}

defineGlobal("queueMicrotask", builtin("queueMicrotask", {
  queueMicrotask(callback) {
    if (typeof callback !== "function") throw invalidArgType("callback", callback);
    enqueueJob(function () { runCallback(callback); });
  },
}.queueMicrotask), true);

// The clock's origin: the monotonic reading and the wall clock at the
// execution's first use of performance.
let originMono = -1;
let originWall = 0;
function start() {
  if (originMono < 0) {
    originMono = monotonicNow();
    originWall = dateNow();
  }
}
function now() {
  start();
  const t = mathFloor(monotonicNow() - originMono);
  return t > 0 ? t : 0;
}
web.now = now;

const performanceProto = {};
defineProperty(performanceProto, "now", {
  value: builtin("now", { now() { return now(); } }.now), writable: true, enumerable: true, configurable: true,
});
defineProperty(performanceProto, "timeOrigin", {
  get: builtin("get timeOrigin", { get() { start(); return originWall; } }.get), enumerable: true, configurable: true,
});
defineProperty(performanceProto, "toJSON", {
  value: builtin("toJSON", { toJSON() { start(); return { timeOrigin: originWall }; } }.toJSON),
  writable: true, enumerable: true, configurable: true,
});
defineProperty(performanceProto, toStringTag, { value: "Performance", writable: false, enumerable: false, configurable: true });
const performanceObject = objectCreate(performanceProto);
defineGlobal("performance", performanceObject, true);

// Event, EventTarget, AbortController and AbortSignal, as Node 20 has
// them (lib/internal/event_target.js, lib/internal/abort_controller.js),
// quirks included: a listener added during a dispatch runs in it, a
// passive listener runs after stopImmediatePropagation, and
// removeEventListener reads capture only from an options object.
//
// State lives in private fields, which no Proxy or prototype change can
// forge; the classes reach each other's through functions their static
// blocks leave here. A listener that throws (or returns a promise that
// rejects) is reported as uncaught (web.reportUncaught) and the dispatch
// goes on, as in Node.
const DOMExceptionIntrinsic = web.DOMException;
const received = web.received;
const now = web.now;
const reportUncaught = web.reportUncaught;
const MapIntrinsic = Map;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const arrayIsArray = Array.isArray;
const setPrototypeOf = Object.setPrototypeOf;
// list is an array no setter on Array.prototype sees being filled.
function list() {
  return setPrototypeOf([], null);
}
const mathFloor = Math.floor;
const RangeErrorIntrinsic = RangeError;
const toStringTag = Symbol.toStringTag;

function nodeError(Ctor, code, message) {
  const e = new Ctor(message);
  defineProperty(e, "code", { __proto__: null, value: code, writable: true, enumerable: false, configurable: true });
  return e;
}
function invalidThis(type) {
  return nodeError(TypeErrorIntrinsic, "ERR_INVALID_THIS", "Value of \"this\" must be of type " + type);
}
function missingArgs(names) {
  return nodeError(TypeErrorIntrinsic, "ERR_MISSING_ARGS", "The " + names + " must be specified");
}
function invalidArgType(what, expected, value) {
  return nodeError(TypeErrorIntrinsic, "ERR_INVALID_ARG_TYPE", "The " + what + " must be " + expected + ". " + received(value));
}
// domString is WebIDL's DOMString conversion, with V8's message for a
// symbol (which Node's users see).
function domString(v) {
  if (typeof v === "symbol") throw new TypeErrorIntrinsic("Cannot convert a Symbol value to a string");
  return `${v}`;
}
// options is Node's validateObject with arrays and functions allowed.
function checkOptions(options) {
  if (options !== null && typeof options !== "object" && typeof options !== "function") {
    throw invalidArgType("\"options\" argument", "of type object", options);
  }
}

// A trusted event (AbortSignal's abort) is made with this key.
const trustKey = Symbol("trusted");
let eventState, isEvent;

class Event {
  #s;
  constructor(type, options = undefined) {
    if (arguments.length === 0) throw missingArgs("\"type\" argument");
    let bubbles = false, cancelable = false, composed = false, trusted = false;
    if (options !== null && options !== undefined) {
      if (typeof options !== "object" || arrayIsArray(options)) {
        throw invalidArgType("\"options\" argument", "of type object", options);
      }
      bubbles = !!options.bubbles; cancelable = !!options.cancelable; composed = !!options.composed;
      trusted = options[trustKey] === true;
    }
    this.#s = {
      type: domString(type), bubbles: bubbles, cancelable: cancelable, composed: composed, trusted: trusted,
      prevented: false, stop: false, stopped: false, target: null, dispatching: false, timeStamp: now(),
    };
  }
  static {
    eventState = (e) => e.#s;
    isEvent = (e) => e !== null && typeof e === "object" && #s in e;
  }
  initEvent(type, bubbles = false, cancelable = false) {
    const s = state(this);
    if (arguments.length === 0) throw missingArgs("\"type\" argument");
    if (s.dispatching) return;
    s.type = domString(type); s.bubbles = !!bubbles; s.cancelable = !!cancelable;
  }
  stopImmediatePropagation() { const s = state(this); s.stopped = true; s.stop = true; }
  preventDefault() { state(this).prevented = true; }
  get target() { return state(this).target; }
  get currentTarget() { const s = state(this); return s.dispatching ? s.target : null; }
  get srcElement() { return state(this).target; }
  get type() { return state(this).type; }
  get cancelable() { return state(this).cancelable; }
  get defaultPrevented() { const s = state(this); return s.cancelable && s.prevented; }
  get timeStamp() { return state(this).timeStamp; }
  composedPath() { const s = state(this); return s.dispatching ? [s.target] : []; }
  get returnValue() { const s = state(this); return !(s.cancelable && s.prevented); }
  get bubbles() { return state(this).bubbles; }
  get composed() { return state(this).composed; }
  get eventPhase() { return state(this).dispatching ? 2 : 0; }
  get cancelBubble() { return state(this).stopped; }
  set cancelBubble(value) { const s = state(this); if (value) s.stopped = true; }
  stopPropagation() { state(this).stopped = true; }
  get isTrusted() { return state(this).trusted; }
}
function state(e) {
  if (!isEvent(e)) throw invalidThis("Event");
  return eventState(e);
}
const phases = ["NONE", "CAPTURING_PHASE", "AT_TARGET", "BUBBLING_PHASE"];
for (let i = 0; i < phases.length; i++) {
  defineProperty(Event, phases[i], { value: i, writable: false, enumerable: true, configurable: false });
}

// enumerable makes a prototype's members enumerable, as Node's are.
function enumerable(proto, names) {
  for (let i = 0; i < names.length; i++) {
    const d = getOwnPropertyDescriptor(proto, names[i]);
    d.enumerable = true;
    defineProperty(proto, names[i], d);
  }
}
function tag(proto, name) {
  defineProperty(proto, toStringTag, { value: name, writable: false, enumerable: false, configurable: true });
}
enumerable(Event.prototype, ["initEvent", "stopImmediatePropagation", "preventDefault", "target", "currentTarget",
  "srcElement", "type", "cancelable", "defaultPrevented", "timeStamp", "composedPath", "returnValue", "bubbles",
  "composed", "eventPhase", "cancelBubble", "stopPropagation", "isTrusted"]);
tag(Event.prototype, "Event");

// A listener is a node of its type's list, as in Node: removing one
// unlinks it and marks it, so a dispatch walking the list skips it and
// still reaches what follows.
function unlink(l) {
  l.removed = true;
  if (l.previous !== undefined) l.previous.next = l.next;
  if (l.next !== undefined) l.next.previous = l.previous;
}

// A listener's result that has a then is given a rejection handler
// that reports the rejection as uncaught (Node's addCatch).
function addCatch(result) {
  const then = result.then;
  if (typeof then === "function") apply(then, result, [undefined, reportUncaught]);
}

function callListener(target, l, event) {
  try {
    let result;
    const listener = l.listener;
    if (typeof listener === "function") {
      result = apply(listener, target, [event]);
    } else {
      // Node wraps an object listener in an async function: handleEvent
      // runs at once, and what it throws becomes a rejection.
      const handleEvent = listener.handleEvent;
      if (handleEvent) {
        try {
          result = apply(handleEvent, listener, [event]);
        } catch (e) {
          reportUncaught(e);
        }
      }
    }
    if (result !== undefined && result !== null) addCatch(result);
  } catch (e) {
    reportUncaught(e);
  }
}

let listenerList, isTarget;

class EventTarget {
  #types = new MapIntrinsic();
  static {
    listenerList = (t, type, create) => {
      let root = apply(mapGet, t.#types, [type]);
      if (root === undefined && create) {
        root = { next: undefined, resist: false };
        apply(mapSet, t.#types, [type, root]);
      }
      return root;
    };
    isTarget = (t) => t !== null && typeof t === "object" && #types in t;
  }
  addEventListener(type, listener, options = undefined) {
    if (!isTarget(this)) throw invalidThis("EventTarget");
    if (arguments.length < 2) throw missingArgs("\"type\" and \"listener\" arguments");
    let capture = false, once = false, passive = false, signal, resist = false;
    if (typeof options === "boolean") {
      capture = options;
    } else if (options !== null && options !== undefined) {
      checkOptions(options);
      once = !!options.once; capture = !!options.capture; passive = !!options.passive; signal = options.signal;
      resist = options[resistKey] === true;
    }
    if (signal !== undefined && !isSignal(signal)) {
      throw invalidArgType("\"options.signal\" property", "an instance of AbortSignal", signal);
    }
    if (!validListener(listener)) return;
    type = domString(type);
    if (signal !== undefined) {
      if (signalState(signal).aborted) return;
      const self = this;
      const opts = options;
      addInternal(signal, "abort", function () { apply(removeEventListener, self, [type, listener, opts]); });
    }
    const root = listenerList(this, type, true);
    let previous = root;
    for (let l = root.next; l !== undefined; previous = l, l = l.next) {
      if (l.listener === listener && l.capture === capture) return;
    }
    const l = { listener: listener, capture: capture, once: once, passive: passive, resist: resist,
      removed: false, previous: previous, next: undefined, root: root };
    previous.next = l;
    if (resist) root.resist = true;
  }
  removeEventListener(type, listener, options = undefined) {
    if (!isTarget(this)) throw invalidThis("EventTarget");
    if (arguments.length < 2) throw missingArgs("\"type\" and \"listener\" arguments");
    if (!validListener(listener)) return;
    type = domString(type);
    const capture = options !== null && options !== undefined && options.capture === true;
    const root = listenerList(this, type, false);
    if (root === undefined) return;
    for (let l = root.next; l !== undefined; l = l.next) {
      if (l.listener === listener && l.capture === capture) {
        unlink(l);
        return;
      }
    }
  }
  dispatchEvent(event) {
    if (!isTarget(this)) throw invalidThis("EventTarget");
    if (arguments.length < 1) throw missingArgs("\"event\" argument");
    if (!isEvent(event)) throw invalidArgType("\"event\" argument", "an instance of Event", event);
    const s = eventState(event);
    if (s.dispatching) {
      throw nodeError(ErrorIntrinsic, "ERR_EVENT_RECURSION", "The event \"" + s.type + "\" is already being dispatched");
    }
    s.target = this;
    s.dispatching = true;
    const root = listenerList(this, s.type, false);
    if (root !== undefined) {
      let l = root.next;
      while (l !== undefined && (root.resist || l.passive || !s.stop)) {
        const next = l.next;
        if (!l.removed) {
          if (l.once) unlink(l);
          callListener(this, l, event);
        }
        l = next;
      }
    }
    s.dispatching = false;
    return !(s.cancelable && s.prevented);
  }
}
const removeEventListener = EventTarget.prototype.removeEventListener;
const addEventListener = EventTarget.prototype.addEventListener;
const dispatchEvent = EventTarget.prototype.dispatchEvent;
enumerable(EventTarget.prototype, ["addEventListener", "removeEventListener", "dispatchEvent"]);
tag(EventTarget.prototype, "EventTarget");

function validListener(listener) {
  if (typeof listener === "function" || (listener !== null && typeof listener === "object")) return true;
  if (listener === null || listener === undefined) return false;
  throw invalidArgType("\"listener\" argument", "an instance of EventListener", listener);
}

// The listeners the platform adds itself (a signal option's removal)
// run even after stopImmediatePropagation, as Node's do.
const resistKey = Symbol("resistStopPropagation");
function addInternal(target, type, fn) {
  const options = { __proto__: null, once: true };
  options[resistKey] = true;
  apply(addEventListener, target, [type, fn, options]);
}

// An event handler attribute (onabort) is one listener, at the place
// where a handler was first set, calling whatever handler is set now.
function defineHandler(proto, type) {
  const handlers = new WeakMap();
  const wmGet = WeakMap.prototype.get, wmSet = WeakMap.prototype.set;
  const name = "on" + type;
  const accessors = {
    get [name]() {
      const h = apply(wmGet, handlers, [this]);
      return h === undefined ? null : h.handler;
    },
    set [name](value) {
      let h = apply(wmGet, handlers, [this]);
      if (h === undefined) {
        h = { handler: null };
        const self = this;
        apply(addEventListener, this, [type, function (event) {
          if (typeof h.handler === "function") return apply(h.handler, self, [event]);
        }]);
        apply(wmSet, handlers, [this, h]);
      }
      h.handler = value === undefined ? null : value;
    },
  };
  const d = getOwnPropertyDescriptor(accessors, name);
  d.enumerable = true;
  defineProperty(proto, name, d);
}

const constructKey = {};
let signalState, isSignal;

class AbortSignal extends EventTarget {
  #s;
  constructor(key) {
    if (key !== constructKey) throw nodeError(TypeErrorIntrinsic, "ERR_ILLEGAL_CONSTRUCTOR", "Illegal constructor");
    super();
    this.#s = { aborted: false, reason: undefined, composite: false, sources: null, dependants: null };
  }
  static {
    signalState = (s) => s.#s;
    isSignal = (s) => s !== null && typeof s === "object" && #s in s;
  }
  get aborted() { return checkSignal(this).aborted; }
  get reason() { return checkSignal(this).reason; }
  throwIfAborted() {
    const s = checkSignal(this);
    if (s.aborted) throw s.reason;
  }
  static abort(reason = abortError()) {
    const signal = new AbortSignal(constructKey);
    const s = signalState(signal);
    s.aborted = true;
    s.reason = reason;
    return signal;
  }
  static timeout(delay) {
    checkDelay(delay);
    const setTimeout = web.setTimeout;
    if (typeof setTimeout !== "function") {
      throw new ErrorIntrinsic("AbortSignal.timeout: timers are not available in this sandbox");
    }
    const signal = new AbortSignal(constructKey);
    setTimeout(function () {
      abortSignal(signal, new DOMExceptionIntrinsic("The operation was aborted due to timeout", "TimeoutError"));
    }, delay);
    return signal;
  }
  static any(signals) {
    if (!arrayIsArray(signals)) throw invalidArgType("\"signals\" argument", "an instance of Array", signals);
    for (let i = 0; i < signals.length; i++) {
      if (!isSignal(signals[i])) {
        throw invalidArgType("\"signals[" + i + "]\" argument", "an instance of AbortSignal", signals[i]);
      }
    }
    const result = new AbortSignal(constructKey);
    const r = signalState(result);
    r.composite = true;
    if (signals.length === 0) return result;
    r.sources = list();
    for (let i = 0; i < signals.length; i++) {
      const s = signalState(signals[i]);
      if (s.aborted) {
        abortSignal(result, s.reason);
        return result;
      }
      if (!s.composite) {
        follow(result, signals[i]);
      } else if (s.sources !== null) {
        for (let j = 0; j < s.sources.length; j++) follow(result, s.sources[j]);
      }
    }
    return result;
  }
}
function follow(result, source) {
  const s = signalState(source);
  if (s.dependants === null) s.dependants = list();
  s.dependants[s.dependants.length] = result;
  const r = signalState(result);
  r.sources[r.sources.length] = source;
}
function checkSignal(signal) {
  if (!isSignal(signal)) throw invalidThis("AbortSignal");
  return signalState(signal);
}
function checkDelay(delay) {
  if (typeof delay !== "number") throw invalidArgType("\"delay\" argument", "of type number", delay);
  const range = delay - mathFloor(delay) === 0 ? (delay < 0 || delay > 4294967295 ? ">= 0 && <= 4294967295" : "") : "an integer";
  if (range !== "") {
    let shown = StringIntrinsic(delay);
    if (range !== "an integer" && (delay > 4294967296 || delay < -4294967296)) shown = separated(shown);
    throw nodeError(RangeErrorIntrinsic, "ERR_OUT_OF_RANGE", "The value of \"delay\" is out of range. It must be " + range + ". Received " + shown);
  }
}
// separated is Node's addNumericalSeparator: 4294967296 as 4_294_967_296.
function separated(text) {
  let res = "", i = text.length;
  const start = text[0] === "-" ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = "_" + apply(strSlice, text, [i - 3, i]) + res;
  return apply(strSlice, text, [0, i]) + res;
}
function abortError() {
  return new DOMExceptionIntrinsic("This operation was aborted", "AbortError");
}
// abortSignal aborts signal and, after its own abort event, the signals
// that follow it (AbortSignal.any), as Node does.
function abortSignal(signal, reason) {
  const s = signalState(signal);
  if (s.aborted) return;
  s.aborted = true;
  s.reason = reason;
  const options = { __proto__: null };
  options[trustKey] = true;
  apply(dispatchEvent, signal, [new Event("abort", options)]);
  const dependants = s.dependants;
  if (dependants !== null) {
    for (let i = 0; i < dependants.length; i++) abortSignal(dependants[i], reason);
  }
}
enumerable(AbortSignal.prototype, ["aborted"]);
defineHandler(AbortSignal.prototype, "abort");
tag(AbortSignal.prototype, "AbortSignal");

let controllerSignal;
class AbortController {
  #signal = new AbortSignal(constructKey);
  static {
    controllerSignal = (c) => {
      // Node's AbortController keeps its signal in #signal too: V8's messages.
      if (c === null || c === undefined) {
        throw new TypeErrorIntrinsic("Cannot read properties of " + c + " (reading '#signal')");
      }
      if (typeof c !== "object" || !(#signal in c)) {
        throw new TypeErrorIntrinsic("Cannot read private member #signal from an object whose class did not declare it");
      }
      return c.#signal;
    };
  }
  get signal() { return controllerSignal(this); }
  abort(reason = abortError()) { abortSignal(controllerSignal(this), reason); }
}
enumerable(AbortController.prototype, ["signal", "abort"]);
tag(AbortController.prototype, "AbortController");

defineGlobal("Event", Event, false);
defineGlobal("EventTarget", EventTarget, false);
defineGlobal("AbortController", AbortController, false);
defineGlobal("AbortSignal", AbortSignal, false);

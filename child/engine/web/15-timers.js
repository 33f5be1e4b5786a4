  // setTimeout, setInterval, clearTimeout, clearInterval, as Node 20's
  // (its lib/internal/timers.js): timers are kept in one list per
  // duration, and the lists in a priority queue by (expiry, list id), so
  // that equal delays run in scheduling order and overdue timers run in
  // the order Node runs them. The engine's loop drives them: when no job
  // is pending it calls the prelude's timers entry point (web.tick), which
  // runs at most one due callback, or says how long to wait for the next
  // one (RATIONALE.md, "Timers: the queue in the prelude, the waiting in
  // Go"). Time is the host's monotonic clock in whole milliseconds, as
  // libuv's, read when a timer is set or fired, never at load time.
  const TIMEOUT_MAX = 2147483647;
  const mathTrunc = Math.trunc;
  const mathMax = Math.max;
  const mathFloor = Math.floor;
  const arraySlice = Array.prototype.slice;
  const TypeErrorI = TypeError;
  const StringI = String;
  const objectIs = Object.is;
  const toPrimitiveKey = Symbol.toPrimitive;
  const clock = web.monotonicNow;
  function now() { return mathFloor(clock()); }

  // lists: msecs to its list; queue: the lists as a binary heap from 1.
  const lists = { __proto__: null };
  const queue = { __proto__: null };
  let queueSize = 0;
  let listIds = 1;
  let refCount = 0;
  let pending = 0; // timers in a list: what the timers limit counts
  let ids = 1;
  const knownById = { __proto__: null }; // ids given out as numbers
  let batchNow = -1; // processTimers's now while a batch of due timers runs

  function before(a, b) {
    return a.expiry < b.expiry || a.expiry === b.expiry && a.id < b.id;
  }
  function place(list, pos) { queue[pos] = list; list.pos = pos; }
  function percolateUp(pos) {
    const item = queue[pos];
    while (pos > 1) {
      const parent = queue[pos >> 1];
      if (!before(item, parent)) break;
      place(parent, pos);
      pos >>= 1;
    }
    place(item, pos);
  }
  function percolateDown(pos) {
    const item = queue[pos];
    for (;;) {
      let child = pos * 2;
      if (child > queueSize) break;
      if (child + 1 <= queueSize && before(queue[child + 1], queue[child])) child++;
      if (!before(queue[child], item)) break;
      place(queue[child], pos);
      pos = child;
    }
    place(item, pos);
  }
  function queueInsert(list) {
    queueSize++;
    place(list, queueSize);
    percolateUp(queueSize);
  }
  function queueRemoveAt(pos) {
    const last = queue[queueSize];
    delete queue[queueSize];
    queueSize--;
    if (pos <= queueSize) {
      place(last, pos);
      if (pos > 1 && before(last, queue[pos >> 1])) percolateUp(pos);
      else percolateDown(pos);
    }
  }

  // A list's timers, in insertion order (so by start time).
  function append(list, r) {
    if (pending >= timersLimit) hostTimers(StringI(pending + 1));
    pending++;
    r.list = list;
    r.prev = list.tail;
    r.next = null;
    if (list.tail === null) list.head = r; else list.tail.next = r;
    list.tail = r;
  }
  function remove(r) {
    const list = r.list;
    if (list === null) return;
    pending--;
    if (r.prev === null) list.head = r.next; else r.prev.next = r.next;
    if (r.next === null) list.tail = r.prev; else r.next.prev = r.prev;
    r.list = null;
    r.prev = null;
    r.next = null;
  }

  function insert(r, msecs, start) {
    msecs = mathTrunc(msecs);
    r.start = start;
    let list = lists[msecs];
    if (list === undefined) {
      list = { msecs: msecs, expiry: start + msecs, id: listIds++, pos: 0, head: null, tail: null };
      lists[msecs] = list;
      queueInsert(list);
    }
    remove(r);
    append(list, r);
  }
  function destroy(r) {
    r.destroyed = true;
    if (r.hasPrimitive) delete knownById[r.id];
    if (r.refed) refCount--;
  }
  function unenroll(r) {
    if (r.destroyed) return;
    destroy(r);
    remove(r);
    if (r.refed) {
      const list = lists[mathTrunc(r.idleTimeout)];
      if (list !== undefined && list.head === null) {
        queueRemoveAt(list.pos);
        delete lists[list.msecs];
      }
    }
    r.idleTimeout = -1;
  }
  // insertGuarded: refresh re-arms a timer, even one that has fired.
  function rearm(r) {
    const msecs = r.idleTimeout;
    if (msecs < 0 || msecs === undefined) return;
    insert(r, msecs, now());
    if (r.destroyed) {
      r.destroyed = false;
      if (r.refed) refCount++;
    }
  }

  // received describes a value that is not a function as Node's
  // ERR_INVALID_ARG_TYPE does (an object with no constructor name is
  // always shown as an empty null-prototype object).
  function received(v) {
    if (v === null || v === undefined) return "" + v;
    if (typeof v === "object") {
      const c = v.constructor;
      if (c !== null && c !== undefined && c.name) return "an instance of " + c.name;
      return "[Object: null prototype] {}";
    }
    let text;
    if (typeof v === "string") {
      if (v.length > 28) v = apply(strSlice, v, [0, 25]) + "...";
      text = apply(stringIncludes, v, ["'"]) ? "\"" + v + "\"" : "'" + v + "'";
    } else if (typeof v === "bigint") {
      text = StringI(v) + "n";
    } else if (typeof v === "number" && objectIs(v, -0)) {
      text = "-0";
    } else {
      text = StringI(v);
    }
    if (typeof v !== "string" && text.length > 28) text = apply(strSlice, text, [0, 25]) + "...";
    return "type " + typeof v + " (" + text + ")";
  }
  const stringIncludes = String.prototype.includes;
  function checkCallback(callback) {
    if (typeof callback !== "function") {
      const e = new TypeErrorI("The \"callback\" argument must be of type function. Received " + received(callback));
      defineProperty(e, "code", { value: "ERR_INVALID_ARG_TYPE", writable: true, enumerable: false, configurable: true });
      throw e;
    }
  }

  // Timeout is what setTimeout and setInterval return (Node's class of
  // that name); its state is a record no guest code can reach (records:
  // a WeakMap is cheaper here than a private field in QuickJS-NG).
  const token = {};
  const records = new WeakMap();
  const weakMapGet = WeakMap.prototype.get;
  const weakMapSet = WeakMap.prototype.set;
  function recordOf(t) { return apply(weakMapGet, records, [t]); }
  function own(t) {
    const r = recordOf(t);
    if (r === undefined) throw new TypeErrorI("Receiver must be a Timeout");
    return r;
  }
  class Timeout {
    constructor(t, r) {
      if (t !== token) throw new TypeErrorI("Illegal constructor");
      apply(weakMapSet, records, [this, r]);
      r.object = this;
    }
    refresh() {
      rearm(own(this));
      return this;
    }
    unref() {
      const r = own(this);
      if (r.refed) {
        r.refed = false;
        if (!r.destroyed) refCount--;
      }
      return this;
    }
    ref() {
      const r = own(this);
      if (!r.refed) {
        r.refed = true;
        if (!r.destroyed) refCount++;
      }
      return this;
    }
    hasRef() {
      return own(this).refed;
    }
  }
  defineProperty(Timeout.prototype, "close", {
    value: function () { clearTimeout(this); return this; },
    writable: true, enumerable: true, configurable: true,
  });
  defineProperty(Timeout.prototype, toPrimitiveKey, {
    value: function () {
      const r = own(this);
      if (!r.hasPrimitive) {
        r.hasPrimitive = true;
        knownById[r.id] = r;
      }
      return r.id;
    },
    writable: true, enumerable: true, configurable: true,
  });

  function schedule(callback, after, args, repeat, refed) {
    after *= 1;
    if (!(after >= 1 && after <= TIMEOUT_MAX)) after = 1;
    const r = {
      id: ids++, callback: callback, args: args, idleTimeout: after,
      repeat: repeat ? after : null, start: 0, refed: refed, destroyed: false,
      hasPrimitive: false, list: null, prev: null, next: null, object: null,
    };
    if (refed) refCount++;
    insert(r, after, now());
    return r;
  }
  const setTimeout = builtin("setTimeout", {
    setTimeout(callback, after, arg1, arg2, arg3) {
      checkCallback(callback);
      const args = arguments.length > 2 ? apply(arraySlice, arguments, [2]) : [];
      return new Timeout(token, schedule(callback, after, args, false, true));
    },
  }.setTimeout);
  const setInterval = builtin("setInterval", {
    setInterval(callback, repeat, arg1, arg2, arg3) {
      checkCallback(callback);
      const args = arguments.length > 2 ? apply(arraySlice, arguments, [2]) : [];
      return new Timeout(token, schedule(callback, repeat, args, true, true));
    },
  }.setInterval);
  const clearTimeout = builtin("clearTimeout", {
    clearTimeout(timer) {
      let r = recordOf(timer);
      if (r === undefined && (typeof timer === "number" || typeof timer === "string")) {
        r = knownById[timer];
      }
      if (r !== undefined && r.callback !== null) {
        r.callback = null;
        unenroll(r);
      }
    },
  }.clearTimeout);
  const clearInterval = builtin("clearInterval", {
    clearInterval(timer) { clearTimeout(timer); },
  }.clearInterval);

  // fire is listOnTimeout's call of one timer: an interval is re-armed
  // from the time its callback started; a throw ends the execution as an
  // uncaught exception ends a Node process.
  function fire(r) {
    let start = 0;
    if (r.repeat !== null) start = now();
    let threw = false;
    let error;
    try {
      apply(r.callback, r.object, r.args);
    } catch (e) {
      threw = true;
      error = e;
    }
    if (r.repeat !== null && r.idleTimeout !== -1) {
      r.idleTimeout = r.repeat;
      insert(r, r.idleTimeout, start);
    } else if (r.list === null && !r.destroyed) {
      destroy(r);
    }
    if (threw) web.reportUncaught(error);
  }

  // step runs the next timer due at batchNow (processTimers and
  // listOnTimeout, one timer at a time: the engine drains the microtasks
  // between them, as runNextTicks does). It reports whether it ran one.
  function step() {
    while (queueSize > 0) {
      const list = queue[1];
      if (list.expiry > batchNow) return false;
      const r = list.head;
      if (r === null) {
        if (lists[list.msecs] === list) delete lists[list.msecs];
        queueRemoveAt(1);
        continue;
      }
      if (batchNow - r.start < list.msecs) {
        list.expiry = mathMax(r.start + list.msecs, batchNow + 1);
        list.id = listIds++;
        percolateDown(1);
        continue;
      }
      remove(r);
      if (r.callback === null) {
        if (!r.destroyed) destroy(r);
        continue;
      }
      fire(r);
      return true;
    }
    return false;
  }

  // web.tick is the engine's: it runs one due timer callback and returns
  // 0, or returns the milliseconds until the next timer is due, or -1
  // when no timer keeps the execution waiting (none is pending, or only
  // unref'd ones are, with which Node would exit).
  web.tick = function () {
    for (;;) {
      if (batchNow < 0) {
        if (refCount <= 0 || queueSize === 0) return -1;
        const precise = clock();
        const t = mathFloor(precise);
        const expiry = queue[1].expiry;
        if (expiry > t) return expiry - precise;
        batchNow = t;
      }
      if (step()) return 0;
      batchNow = -1;
    }
  };

  // For AbortSignal.timeout: an unref'd timer, as Node's, so it never
  // keeps an execution waiting by itself. What it returns is only for
  // web.clearTimeout; it is never a number a guest could clear.
  web.setTimeout = function (fn, ms) {
    return new Timeout(token, schedule(fn, ms, [], false, false));
  };
  web.clearTimeout = clearTimeout;
  defineGlobal("setTimeout", setTimeout, true);
  defineGlobal("setInterval", setInterval, true);
  defineGlobal("clearTimeout", clearTimeout, true);
  defineGlobal("clearInterval", clearInterval, true);

// Warden's in-sandbox prelude. It is evaluated once per instance, before
// any user code, and is handed the three host functions as arguments, so
// they are never reachable from guest code except through the wrappers
// below. Everything the envelope depends on (JSON, Reflect.apply,
// Function.prototype.toString, property descriptors) is captured here,
// before user code can replace or poison it.
//
// It returns the object the Go host drives: run, finish and describe.
// Host functions only ever receive strings and only ever return strings.
(function (hostLog, hostSha256, hostRequest) {
  "use strict";
  const apply = Reflect.apply;
  const bind = Function.prototype.bind;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const freeze = Object.freeze;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const PromiseIntrinsic = Promise;
  const promiseResolve = Promise.resolve;
  const promiseReject = Promise.reject;
  const promiseThen = Promise.prototype.then;
  const fnToString = Function.prototype.toString;
  const strSlice = String.prototype.slice;
  const StringIntrinsic = String;
  const ErrorIntrinsic = Error;
  const TypeErrorIntrinsic = TypeError;
  const SyntaxErrorIntrinsic = SyntaxError;
  const errorToString = Error.prototype.toString;

  function resolved(v) {
    return apply(promiseResolve, PromiseIntrinsic, [v]);
  }
  function rejected(e) {
    return apply(promiseReject, PromiseIntrinsic, [e]);
  }

  // format turns one console argument into text, inside the guest.
  function format(v) {
    if (typeof v === "string") return v;
    if (v !== null && typeof v === "object") {
      if (v instanceof ErrorIntrinsic) {
        try { return apply(errorToString, v, []); } catch (e) { /* fall through */ }
      }
      try {
        const s = apply(stringify, undefined, [v]);
        if (s !== undefined) return s;
      } catch (e) { /* cycles, BigInt: fall back to String */ }
    }
    try { return StringIntrinsic(v); } catch (e) { return "[unprintable]"; }
  }

  // builtin makes method look like an ECMAScript built-in function. A
  // bound function is no constructor when its target is none (a method
  // is none), has no prototype, caller or arguments of its own, and its
  // source text is "function name() { [native code] }"; only its name
  // ("bound x") needs redefining. Nothing in the language leads from a
  // bound function to its target, so the wrappers below, and the host
  // functions they close over, stay out of reach.
  function builtin(name, method) {
    const f = apply(bind, method, [undefined]);
    defineProperty(f, "name", { value: name, writable: false, enumerable: false, configurable: true });
    return f;
  }

  // Once the host has cut the logs (the output limit), console calls do
  // nothing: their arguments are not even formatted.
  let logsCut = false;
  function logger(level) {
    const methods = {
      log() {
        if (logsCut) return;
        let text = "";
        for (let i = 0; i < arguments.length; i++) {
          if (i > 0) text += " ";
          text += format(arguments[i]);
        }
        if (hostLog(level, text) === "cut") logsCut = true;
      },
    };
    return builtin(level, methods.log);
  }

  const consoleObject = {};
  const levels = ["log", "info", "warn", "error", "debug"];
  for (let i = 0; i < levels.length; i++) {
    defineProperty(consoleObject, levels[i], {
      value: logger(levels[i]), writable: true, enumerable: true, configurable: true,
    });
  }

  const sha256 = builtin("sha256", {
    sha256(text) {
      if (typeof text !== "string") {
        throw new TypeErrorIntrinsic("sha256: argument must be a string, got " + typeof text);
      }
      return hostSha256(text);
    },
  }.sha256);

  let serializing = false;
  const request = builtin("request", {
    request(name, args) {
      if (typeof name !== "string") {
        return rejected(new TypeErrorIntrinsic("host.request: name must be a string, got " + typeof name));
      }
      // A getter or toJSON on args runs while they are serialized; a
      // host.request from there would nest one host call inside the
      // preparation of another, so it throws (and the outer request is
      // rejected with that error).
      if (serializing) {
        throw new TypeErrorIntrinsic("host.request: cannot be called while another request's arguments are being serialized");
      }
      let json;
      serializing = true;
      try {
        json = args === undefined ? "null" : apply(stringify, undefined, [args]);
      } catch (e) {
        return rejected(e);
      } finally {
        serializing = false;
      }
      if (json === undefined) json = "null";
      const answer = hostRequest(name, json);
      const body = apply(strSlice, answer, [1]);
      if (answer[0] === "1") {
        return resolved(apply(parse, undefined, [body]));
      }
      return rejected(new ErrorIntrinsic(body));
    },
  }.request);
  const hostObject = {};
  defineProperty(hostObject, "request", {
    value: request, writable: true, enumerable: true, configurable: true,
  });

  // The web platform's globals (see "web-globals" below): what each web
  // file defines, and what the files share (web.DOMException, ...).
  const web = {};
  // web.reportUncaught(error) ends the execution with error, as an
  // exception nothing can catch ends a Node process: for a callback the
  // platform calls (a timer, a microtask) that throws. The first report
  // wins; after the result has settled it does nothing.
  let failExecution = null;
  web.reportUncaught = function (error) {
    if (failExecution !== null) {
      const fail = failExecution;
      failExecution = null;
      fail(error);
    }
  };
  const webGlobals = [];
  function defineGlobal(name, value, enumerable) {
    webGlobals[webGlobals.length] = { name: name, value: value, enumerable: enumerable === true };
  }

  // stack-hooks:begin
  // QuickJS-NG's V8-style stack-trace hooks go. Error.prepareStackTrace
  // runs guest code whenever the engine builds an error's stack (also
  // inside a host call, which would nest host calls), and its CallSite
  // frames' getFunction() hand out the functions on the stack: this
  // prelude's wrappers and runner. captureStackTrace runs the same hook;
  // stackTraceLimit is an accessor on engine state. The engine keeps its
  // own copies of the last values set (none, and 10 frames) and no longer
  // reads anything a guest can set.
  const stackHooks = ["prepareStackTrace", "captureStackTrace", "stackTraceLimit"];
  for (let i = 0; i < stackHooks.length; i++) {
    delete ErrorIntrinsic[stackHooks[i]];
  }
  // stack-hooks:end

  // Globals that are not ECMAScript go. InternalError matters most: in
  // this build every InternalError is uncatchable, and with the
  // constructor gone only the engine itself can raise one, so the host
  // can trust an uncatchable "out of memory" to be the engine's. The web
  // platform's globals QuickJS-NG has natively stay only where they
  // behave as Node's (DOMException); the web files replace the others.
  const DOMExceptionIntrinsic = DOMException;
  web.DOMException = DOMExceptionIntrinsic;
  // QuickJS-NG's atob and btoa decode and encode as Node's; only their
  // error messages differ. web/20-encoding.js defines the globals as
  // wrappers of these copies that throw Node's errors
  // (TestAtobBtoaAsNode), and uses them for its own byte conversions.
  web.atob = atob;
  web.btoa = btoa;
  const notECMAScript = ["InternalError", "queueMicrotask", "btoa", "atob", "performance"];
  for (let i = 0; i < notECMAScript.length; i++) {
    delete globalThis[notECMAScript[i]];
  }

  // The web platform's pure globals (child/engine/web/*.js, inlined at
  // the marker below in name order, each in its own function). Each
  // file defines its globals with defineGlobal and may leave what later
  // files need on web.
  // web-globals

  const globals = { console: consoleObject, sha256: sha256, host: hostObject };
  for (const name in globals) {
    defineProperty(globalThis, name, {
      value: globals[name], writable: true, enumerable: false, configurable: true,
    });
  }
  for (let i = 0; i < webGlobals.length; i++) {
    const g = webGlobals[i];
    defineProperty(globalThis, g.name, {
      value: g.value, writable: true, enumerable: g.enumerable, configurable: true,
    });
  }

  // ownData reads a data property along the prototype chain without ever
  // calling a getter.
  function ownData(obj, key) {
    for (let o = obj, depth = 0; o !== null && depth < 64; o = getPrototypeOf(o), depth++) {
      const d = getOwnPropertyDescriptor(o, key);
      if (d !== undefined) return "value" in d ? d.value : undefined;
    }
    return undefined;
  }

  return freeze({
    // run checks that fn is exactly the wrapper the host built around the
    // code (so a body with unbalanced braces cannot have run anything
    // outside it), then calls it with the parsed input and returns its
    // promise. The host reads the promise's state from the engine.
    run: function (fn, source, inputJSON) {
      if (typeof fn !== "function" || apply(fnToString, fn, []) !== source) {
        throw new SyntaxErrorIntrinsic("code must be the body of a function: it closes the function early (unbalanced braces)");
      }
      const result = apply(fn, undefined, [apply(parse, undefined, [inputJSON])]);
      // The execution's promise settles with the function's, or rejects
      // with the first uncaught error a platform callback reports.
      return new PromiseIntrinsic(function (resolve, reject) {
        failExecution = reject;
        apply(promiseThen, result, [
          function (v) { failExecution = null; resolve(v); },
          function (e) { failExecution = null; reject(e); },
        ]);
      });
    },
    // finish stringifies the settled value; undefined becomes null.
    finish: function (value) {
      const s = apply(stringify, undefined, [value]);
      return s === undefined ? "null" : s;
    },
    // describe turns a thrown value into {name, message, stack} JSON.
    // name and message are read as data properties only; stack goes
    // through its accessor. The host calls it after the execution, with
    // host functions closed.
    describe: function (err) {
      let name = "", message = "", stack = "";
      if (err !== null && (typeof err === "object" || typeof err === "function")) {
        const n = ownData(err, "name");
        const m = ownData(err, "message");
        let s = ownData(err, "stack");
        if (s === undefined) {
          // In this engine stack is an accessor on Error.prototype.
          try { s = err.stack; } catch (e) { s = undefined; }
        }
        if (typeof n === "string") name = n;
        if (typeof m === "string") message = m;
        if (typeof s === "string") stack = s;
        if (name === "" && message === "") message = "thrown value is not an Error";
      } else {
        message = "uncaught " + (typeof err) + ": ";
        try { message += StringIntrinsic(err); } catch (e) { message += "[unprintable]"; }
      }
      return apply(stringify, undefined, [{ name: name, message: message, stack: stack }]);
    },
  });
})

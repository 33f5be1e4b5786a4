// Warden's in-sandbox prelude. It is evaluated once per instance, before
// any user code, and is handed the host functions as arguments, so
// they are never reachable from guest code except through the wrappers
// below. Everything the envelope depends on (JSON, Reflect.apply,
// Function.prototype.toString, property descriptors) is captured here,
// before user code can replace or poison it.
//
// It returns the object the Go host drives: run, timers, finish and
// describe. Host functions only ever receive strings and only ever return
// strings.
(function (hostLog, hostSha256, hostRequest, hostTimers, hostRandom, hostDigest, hostHmacSign, hostHmacVerify, hostSource, hostIntl) {
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
  const strIndexOf = String.prototype.indexOf;
  const regexpExec = RegExp.prototype.exec;
  const setPrototypeOf = Object.setPrototypeOf;
  const strCharCodeAt = String.prototype.charCodeAt;
  const WeakMapIntrinsic = WeakMap;
  const weakGet = WeakMap.prototype.get;
  const weakSet = WeakMap.prototype.set;

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
      // The host queues the request and answers with its sequence
      // number; it calls the data handler once no job is left to run
      // (no WebAssembly frame is live then, so the execution can park
      // there), and settles the promise through answer() below.
      const seq = hostRequest(name, json);
      let settle;
      const promise = new PromiseIntrinsic(function (resolve, reject) { settle = { resolve: resolve, reject: reject }; });
      pendingRequests[seq] = settle;
      return promise;
    },
  }.request);
  // pendingRequests maps a queued request's sequence number (as text) to
  // its promise's resolve and reject.
  const pendingRequests = { __proto__: null };
  // answerRequest settles the request seq with the host's answer: "1" and
  // the JSON value, or "0" and the message of the error it rejects with.
  function answerRequest(seq, answer) {
    const settle = pendingRequests[seq];
    if (settle === undefined) return;
    delete pendingRequests[seq];
    const body = apply(strSlice, answer, [1]);
    if (answer[0] !== "1") {
      settle.reject(new ErrorIntrinsic(body));
      return;
    }
    let value;
    try {
      value = apply(parse, undefined, [body]);
    } catch (e) {
      settle.reject(e);
      return;
    }
    settle.resolve(value);
  }
  const hostObject = {};
  defineProperty(hostObject, "request", {
    value: request, writable: true, enumerable: true, configurable: true,
  });

  // The web platform's globals (see "web-globals" below): what each web
  // file defines, and what the files share (web.DOMException, ...).
  const web = {};
  // web.reportUncaught(error) ends the execution with error, as an
  // exception nothing can catch ends a Node process: for a callback the
  // platform calls (a listener, a timer, a microtask) that throws. It
  // queues a job that throws error, and the host ends the execution with
  // the exception of the first job that throws. A result that settled
  // first stands: the host runs no job after it (as for any other work
  // left queued), and nothing stands between the code's promise and the
  // host, which reads its state from the engine.
  const enqueueJobIntrinsic = queueMicrotask;
  web.reportUncaught = function (error) {
    enqueueJobIntrinsic(function () { throw error; });
  };
  // timersLimit is the execution's timers limit (run sets it): a timer
  // set with that many pending calls hostTimers, which ends the execution.
  let timersLimit = 0;
  // virtualClock is set (by run, from its mode text) in a deterministic
  // execution: the monotonic clock is then the host's virtual clock, the
  // one Date.now() reads, which only timers move.
  let virtualClock = false;
  // setMode reads run's mode text: the timers limit in decimal, then
  // " virtual-clock" in a deterministic execution.
  function setMode(modeText) {
    const space = apply(strIndexOf, modeText, [" "]);
    virtualClock = space >= 0 && apply(strSlice, modeText, [space + 1]) === "virtual-clock";
    timersLimit = +(space < 0 ? modeText : apply(strSlice, modeText, [0, space]));
  }
  const webGlobals = [];
  function defineGlobal(name, value, enumerable) {
    webGlobals[webGlobals.length] = { name: name, value: value, enumerable: enumerable === true };
  }

  // error-stacks:begin
  // What a user reads of an error's stack (error.stack in the guest, and
  // the envelope's error.stack) is the engine's text rewritten here, in
  // one place:
  //   - it begins with "Name: message", as V8's does;
  //   - this prelude's frames go, with the natives it called (apply from
  //     run, JSON.stringify from host.request, ...): what is left is the
  //     user's code, its modules, code it eval'd, and the natives those
  //     called (JSON.parse, Array.prototype.map, ...);
  //   - positions are the user's (mapPosition): the code sits on the
  //     wrapper's second line, one line down, and columns count UTF-16
  //     code units, as V8's do, where the engine counts UTF-8 bytes;
  //   - frames read as V8 writes them: "    at f (<code>:3:7)", an
  //     anonymous function's "    at <code>:3:7", eval'd code's file
  //     "<anonymous>", at most maxUserFrames of them.
  // The engine collects the stack when the error is made and this text
  // is made when it is first read (and kept): the header is the name and
  // message the error has then.
  const maxUserFrames = 10;
  const stackAccessor = getOwnPropertyDescriptor(ErrorIntrinsic.prototype, "stack");
  const engineStack = stackAccessor.get;
  const userStacks = new WeakMapIntrinsic();

  // list is an array with no prototype: assigning past its end calls no
  // setter a guest put on Array.prototype for the index.
  function list() {
    const a = [];
    setPrototypeOf(a, null);
    return a;
  }

  // splitLines cuts a stack's text into its lines.
  function splitLines(text) {
    const lines = list();
    let start = 0;
    for (;;) {
      const at = apply(strIndexOf, text, ["\n", start]);
      if (at < 0) break;
      lines[lines.length] = apply(strSlice, text, [start, at]);
      start = at + 1;
    }
    lines[lines.length] = apply(strSlice, text, [start]);
    return lines;
  }

  // sourceLine is line n (1-based, the engine's numbering) of file, the
  // user's code ("<code>", the wrapper's text: the code from its second
  // line) or a module, or undefined when it is not known. The host has
  // the texts (the source host function); line 0 is the number of lines.
  // The host's answer is kept (sourceLines): "1" + the text, or "0".
  const sourceLines = { __proto__: null };
  function sourceLine(file, n) {
    const key = n + ":" + file;
    let answer = sourceLines[key];
    if (answer === undefined) {
      try { answer = hostSource(file, "" + n); } catch (e) { return undefined; }
      if (typeof answer !== "string") return undefined;
      sourceLines[key] = answer;
    }
    if (answer[0] !== "1") return undefined;
    return apply(strSlice, answer, [1]);
  }
  function lineCount(file) {
    const n = sourceLine(file, 0);
    return n === undefined ? -1 : +n;
  }

  // utf16Column turns the engine's column on text (1-based, in UTF-8
  // bytes) into V8's (1-based, in UTF-16 code units).
  function utf16Column(text, col) {
    // The same on ASCII text, which is one byte a unit.
    if (apply(regexpExec, asciiText, [text]) !== null) return col;
    let bytes = 0, i = 0;
    while (i < text.length && bytes < col - 1) {
      const c = apply(strCharCodeAt, text, [i]);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) { bytes += 4; i++; }
      else bytes += 3;
      i++;
    }
    return i + 1;
  }

  const asciiText = /^[\x00-\x7f]*$/;

  // mapPosition turns a position in the engine's terms (its file name,
  // line and column) into the user's: {file, line, col}. A position past
  // the end of the user's code (an unfinished statement, found at the
  // wrapper's closing brace) is the end of its last line.
  function mapPosition(file, line, col, parsing) {
    if (file === "<input>") {
      // Code given to eval or Function. Off its first line the engine
      // counts columns from 1; on it, from 0 while running.
      return position("<anonymous>", line, line === 1 && !parsing ? col + 1 : col);
    }
    let text = sourceLine(file, line);
    if (file === "<code>") {
      const last = lineCount(file) - 2;
      if (last >= 1 && line > last + 1) {
        text = sourceLine(file, last + 1);
        return position(file, last, text === undefined ? 1 : text.length + 1);
      }
      line = line > 1 ? line - 1 : 1;
    }
    if (text === undefined) return position(file, line, col);
    col = utf16Column(text, col);
    return position(file, line, parsing ? col : atNew(text, col));
  }
  function position(file, line, col) {
    return origin({ __proto__: null, file: file, line: line, col: col, mapped: false });
  }

  // origin is p in the TypeScript p's file was written in, when it was
  // (the host maps it through esbuild's source map), else p itself.
  function origin(p) {
    if (p.file === "<anonymous>") return p;
    let answer;
    try { answer = hostSource(p.file, p.line + ":" + p.col); } catch (e) { return p; }
    if (typeof answer !== "string" || answer[0] !== "1") return p;
    const at = apply(strIndexOf, answer, [":"]);
    return { __proto__: null, file: p.file, line: +apply(strSlice, answer, [1, at]), col: +apply(strSlice, answer, [at + 1]), mapped: true };
  }

  // atNew is V8's column for a call of a constructor: the engine places
  // `new X(...)` at X, V8 at `new`.
  function atNew(text, col) {
    let i = col - 2;
    while (i >= 0 && (text[i] === " " || text[i] === "\t")) i--;
    if (i < 2 || i === col - 2 || text[i] !== "w" || text[i - 1] !== "e" || text[i - 2] !== "n") return col;
    const before = i >= 3 ? text[i - 3] : "";
    if (before !== "" && (before === "_" || before === "$" || before === "." || (before >= "0" && before <= "9") ||
        (before >= "a" && before <= "z") || (before >= "A" && before <= "Z"))) return col;
    return i - 1;
  }

  // parseFrame reads one line of the engine's stack: "    at NAME (FILE:L:C)",
  // "    at NAME (native)", or, for a parse error's position, "    at FILE:L:C".
  // It returns a frame or null. FILE is read up to the last ":L:C" (a
  // module's name may hold a colon), NAME up to the first " (".
  const frameSyntax = /^    at (?:(.+?) \((?:(native|missing)|(.*):(\d{1,9}):(\d{1,9})|(.*))\)|(.*):(\d{1,9}):(\d{1,9})|(.*))$/;
  function parseFrame(text) {
    const m = apply(regexpExec, frameSyntax, [text]);
    if (m === null) return null;
    if (m[2] !== undefined) return frame(m[1], m[2], -1, -1, true);
    if (m[3] !== undefined) return frame(m[1], m[3], +m[4], +m[5], false);
    if (m[6] !== undefined) return frame(m[1], m[6], -1, -1, false);
    if (m[7] !== undefined) return frame(null, m[7], +m[8], +m[9], false);
    return frame(null, m[10], -1, -1, false);
  }
  function frame(name, file, line, col, native) {
    return { __proto__: null, name: name, file: file, line: line, col: col, native: native };
  }


  // formatFrame writes a frame as V8 does.
  function formatFrame(f) {
    if (f.native) return "    at " + f.name + " (" + f.file + ")";
    let where = f.file;
    if (f.line >= 0) {
      const p = mapPosition(f.file, f.line, f.col, f.name === null);
      where = p.file + ":" + p.line + ":" + p.col;
    }
    if (f.name === null || f.name === "<anonymous>") return "    at " + where;
    return "    at " + (f.name === "<eval>" ? "eval" : f.name) + " (" + where + ")";
  }

  // errorHeader is V8's first line of a stack: "Name: message", from the
  // error's data properties (no getter runs, nor a toString: a name or
  // message that is an object counts as none).
  function errorHeader(err) {
    let name = primitiveText(ownData(err, "name"), "Error");
    let message = primitiveText(ownData(err, "message"), "");
    if (name === "") return message;
    if (message === "") return name;
    return name + ": " + message;
  }

  function primitiveText(v, none) {
    if (v === undefined || v !== null && typeof v === "object" || typeof v === "function" || typeof v === "symbol") return none;
    return StringIntrinsic(v);
  }

  // engineFrames parses the engine's stack text into frames.
  function engineFrames(raw) {
    const lines = splitLines(raw);
    const frames = list();
    for (let i = 0; i < lines.length; i++) {
      const f = parseFrame(lines[i]);
      if (f !== null) frames[frames.length] = f;
    }
    return frames;
  }

  // userFrames drops the prelude's frames and the natives it called:
  // reading from the outermost frame in, a native frame is the prelude's
  // when its caller (the frame after it) is.
  // A parse error's position in code given to JSON.parse (or an
  // indirect eval), the frame before a native's, goes too: V8 shows none,
  // and JSON.parse's message says where.
  function userFrames(frames) {
    if (frames.length > 1 && frames[0].name === null && frames[0].file === "<input>" && frames[1].native) {
      frames[0] = frame(null, "<warden-prelude>", -1, -1, false);
    }
    const keep = list();
    let callerIsPrelude = false;
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i];
      if (f.file === "<warden-prelude>") {
        callerIsPrelude = true;
      } else if (f.native && callerIsPrelude) {
        // called by the prelude
      } else {
        callerIsPrelude = false;
        keep[keep.length] = f;
      }
    }
    const out = list();
    for (let i = keep.length - 1; i >= 0 && out.length < maxUserFrames; i--) out[out.length] = keep[i];
    return out;
  }

  // userStack is the stack the user reads for err, whose engine stack
  // text is raw.
  function userStack(err, raw) {
    const cached = apply(weakGet, userStacks, [err]);
    if (cached !== undefined && cached.raw === raw) return cached.text;
    const frames = userFrames(engineFrames(raw));
    let text = errorHeader(err);
    for (let i = 0; i < frames.length; i++) text += "\n" + formatFrame(frames[i]);
    apply(weakSet, userStacks, [err, { __proto__: null, raw: raw, text: text }]);
    return text;
  }

  // errorStack is err's stack as the user reads it, with no getter of
  // the guest's run: a data property "stack" as it is (the guest's own),
  // else the engine's, rewritten. A DOMException's stack is a data
  // property the engine makes (frames only, "    at ..."): rewritten too.
  function errorStack(err) {
    const own = ownData(err, "stack");
    if (typeof own === "string" && apply(strSlice, own, [0, 7]) === "    at ") return userStack(err, own);
    if (own !== undefined) return own;
    const raw = apply(engineStack, err, []);
    return typeof raw === "string" ? userStack(err, raw) : raw;
  }

  // syntaxArrow is, for a SyntaxError the engine raised parsing the
  // user's code or a module, what Node prints above an uncaught one: the
  // file and line, the line's text, and a caret under the column:
  // {file, text}. It is null for any other error.
  function syntaxArrow(err) {
    if (ownData(err, "name") !== "SyntaxError") return null;
    let raw;
    try { raw = apply(engineStack, err, []); } catch (e) { return null; }
    if (typeof raw !== "string") return null;
    const frames = engineFrames(raw);
    const f = frames.length > 0 ? frames[0] : null;
    if (f === null || f.name !== null || f.line < 0) return null;
    const p = mapPosition(f.file, f.line, f.col, true);
    // The engine parses TypeScript only once esbuild has made it
    // JavaScript, whose lines are not the user's.
    if (p.mapped) return null;
    const text = sourceLine(p.file, p.file === "<code>" ? p.line + 1 : p.line);
    if (text === undefined) return null;
    let caret = "";
    for (let i = 0; i < p.col - 1 && i < text.length; i++) caret += text[i] === "\t" ? "\t" : " ";
    return { file: p.file, text: p.file + ":" + p.line + "\n" + text + "\n" + caret + "^\n\n" };
  }

  // The getter stays the engine's to look at (a proxy of it: its name,
  // length and source text are the native's); calling it gives the
  // user's stack. The handler has no prototype, so no trap of the
  // guest's (on Object.prototype) is ever asked for.
  const stackGetter = new Proxy(engineStack, {
    __proto__: null,
    apply: function (target, self, args) {
      const raw = apply(engineStack, self, []);
      return typeof raw === "string" ? userStack(self, raw) : raw;
    },
  });
  defineProperty(ErrorIntrinsic.prototype, "stack", {
    get: stackGetter,
    set: stackAccessor.set,
    enumerable: false,
    configurable: true,
  });
  // error-stacks:end

  // stack-hooks:begin
  // QuickJS-NG's V8-style stack-trace hooks go. Error.prepareStackTrace
  // runs guest code whenever the engine builds an error's stack (also
  // inside a host call, which would nest host calls), and its CallSite
  // frames' getFunction() hand out the functions on the stack: this
  // prelude's wrappers and runner. captureStackTrace runs the same hook;
  // stackTraceLimit is an accessor on engine state. The engine keeps its
  // own copies of the last values set (none, and 10 frames) and no longer
  // reads anything a guest can set.
  // The engine collects more frames than a user sees (userStack keeps
  // maxUserFrames): the prelude's own frames are among them.
  ErrorIntrinsic.stackTraceLimit = maxUserFrames + 8;
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
  // The web files build on two of the natives that go: the monotonic
  // clock (performance.now, read when called; its origin is reseeded on
  // a snapshot's restore) and the engine's job queue (queueMicrotask,
  // the queue promise jobs share).
  const performanceIntrinsic = performance;
  const nativeMonotonicNow = apply(bind, performanceIntrinsic.now, [performanceIntrinsic]);
  const dateNowIntrinsic = Date.now;
  web.monotonicNow = function () { return virtualClock ? dateNowIntrinsic() : nativeMonotonicNow(); };
  web.enqueueJob = enqueueJobIntrinsic;
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

  // cutStackHead keeps a long message from being repeated in full at the
  // head of the envelope's stack: the description (name, message, stack)
  // must fit in contract.MaxErrorBytes, which the message alone may
  // nearly fill, and the envelope carries the message whole beside it.
  // What the guest reads as e.stack is not cut.
  const stackHeadMessage = 1024;
  function cutStackHead(stack, name, message) {
    if (message.length <= stackHeadMessage) return stack;
    const head = name + ": " + message;
    if (apply(strSlice, stack, [0, head.length]) !== head) return stack;
    return name + ": " + apply(strSlice, message, [0, stackHeadMessage]) + "... (" +
      (message.length - stackHeadMessage) + " more characters: see message)" + apply(strSlice, stack, [head.length]);
  }

  return freeze({
    // run checks that fn is exactly the wrapper the host built around the
    // code (so a body with unbalanced braces cannot have run anything
    // outside it), then calls it with the parsed input and returns its
    // promise. The host reads the promise's state from the engine.
    // modeText is the timers limit, in decimal, and the clock (setMode).
    run: function (fn, source, inputJSON, modeText) {
      if (typeof fn !== "function" || apply(fnToString, fn, []) !== source) {
        throw new SyntaxErrorIntrinsic("code must be the body of a function: it closes the function early (unbalanced braces)");
      }
      setMode(modeText);
      return apply(fn, undefined, [apply(parse, undefined, [inputJSON])]);
    },
    // setTimers sets the timers limit and the clock (setMode) before a
    // module's top level runs; runModule then takes the promise the
    // module's evaluation gave and returns the promise of the result: the
    // default export, called with the parsed input when it is a function.
    setTimers: function (modeText) { setMode(modeText); },
    runModule: function (evaluation, inputJSON) {
      const input = apply(parse, undefined, [inputJSON]);
      return apply(promiseThen, evaluation, [function (ns) {
        const d = ns["default"];
        return typeof d === "function" ? apply(d, undefined, [input]) : d;
      }]);
    },
    // timers runs one due timer callback (0), or says how many ms until
    // the next is due (> 0), or that none keeps the execution waiting (-1).
    timers: function () { return web.tick(); },
    // answer settles a queued host.request (answerRequest).
    answer: function (seq, answer) { answerRequest(seq, answer); },
    // finish stringifies the settled value; undefined becomes null.
    finish: function (value) {
      const s = apply(stringify, undefined, [value]);
      return s === undefined ? "null" : s;
    },
    // describe turns a thrown value into {name, message, stack} JSON.
    // name and message are read as data properties only, and stack as
    // the user reads it (errorStack), with no getter of the guest's run.
    // A syntax error in the user's code or a module has Node's arrow
    // (the line and a caret) above its stack, and one in a module names
    // the module in its message. The host calls it after the execution,
    // with host functions closed (but the source function).
    describe: function (err) {
      let name = "", message = "", stack = "";
      if (err !== null && (typeof err === "object" || typeof err === "function")) {
        const n = ownData(err, "name");
        const m = ownData(err, "message");
        let s;
        try { s = errorStack(err); } catch (e) { s = undefined; }
        if (typeof n === "string") name = n;
        if (typeof m === "string") message = m;
        if (typeof s === "string") {
          stack = cutStackHead(s, name, message);
          const arrow = syntaxArrow(err);
          if (arrow !== null) {
            stack = arrow.text + s;
            if (arrow.file !== "<code>") message += " (in module " + apply(stringify, undefined, [arrow.file]) + ")";
          }
        }
        if (name === "" && message === "") message = "thrown value is not an Error";
      } else {
        message = "uncaught " + (typeof err) + ": ";
        try { message += StringIntrinsic(err); } catch (e) { message += "[unprintable]"; }
      }
      return apply(stringify, undefined, [{ name: name, message: message, stack: stack }]);
    },
  });
})

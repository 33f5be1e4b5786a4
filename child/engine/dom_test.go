package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Event, EventTarget, AbortController, AbortSignal, structuredClone,
// queueMicrotask and performance behave as Node 20's on the same code
// (sameAsNode); what Node cannot answer (an uncaught error ends Node's
// process) is checked on Warden's envelope.

func TestQueueMicrotaskAsNode(t *testing.T) {
	// Ordering: queueMicrotask callbacks and promise reactions share one
	// queue, in the order they were queued.
	sameAsNode(t, `const log = [];
		queueMicrotask(() => log.push("q1"));
		Promise.resolve().then(() => { log.push("p1"); queueMicrotask(() => log.push("q3")); }).then(() => log.push("p2"));
		queueMicrotask(() => { log.push("q2"); Promise.resolve().then(() => log.push("p3")); });
		(async () => { log.push("a0"); await null; log.push("a1"); await null; log.push("a2"); })();
		log.push("sync");
		await new Promise((r) => queueMicrotask(r));
		await null; await null; await null;
		return log;`, "")
	sameAsNode(t, `const out = [];
		for (const v of [undefined, null, 1, "s", {}, [], Symbol("x"), 1n, true, new Map(), Object.create(null), NaN, -0, "a".repeat(40), 1.5, function f() {}]) {
			if (typeof v === "function") { out.push("fn"); continue; }
			try { queueMicrotask(v); out.push("no error"); } catch (e) { out.push([e.name, e.code, e.message, e instanceof TypeError]); }
		}
		return out;`, "")
	sameAsNode(t, `return [typeof queueMicrotask, queueMicrotask.length, queueMicrotask.name, queueMicrotask(() => 1),
		Object.getOwnPropertyDescriptor(globalThis, "queueMicrotask").enumerable]`, "")
	sameAsNode(t, `let self; queueMicrotask(function () { "use strict"; self = this; }); await null; return [self === undefined, arguments.length]`, "")
}

// TestQueueMicrotaskThrows: a callback that throws ends the execution
// with its error (Node's process dies of it: not comparable).
func TestQueueMicrotaskThrows(t *testing.T) {
	res := runCode(t, `queueMicrotask(() => { throw new RangeError("from a microtask"); });
		await new Promise(() => {});`)
	if res.OK || res.Error.Type != contract.UserCodeError || res.Error.Name != "RangeError" || res.Error.Message != "from a microtask" {
		t.Fatalf("got %+v", res)
	}
	// A result that settled first stands, as for any work left queued
	// (escape/microtask_after_return.js); Node's process would die.
	res = runCode(t, `queueMicrotask(() => { throw new Error("late"); }); return 5`)
	if !res.OK || string(res.Value) != "5" {
		t.Fatalf("a callback after the result settled changed it: %+v", res)
	}
}

func TestPerformanceAsNode(t *testing.T) {
	sameAsNode(t, `const a = performance.now(), b = performance.now();
		const o = performance.timeOrigin;
		return [typeof a, a >= 0, b >= a, typeof o, Math.abs(o + b - Date.now()) < 1000, o === performance.timeOrigin,
			Object.prototype.toString.call(performance), typeof performance.toJSON, performance.toJSON().timeOrigin === o,
			Object.getOwnPropertyDescriptor(globalThis, "performance").enumerable, performance.now.name]`, "")
	res := runCode(t, `const seen = []; let last = performance.now(); const end = Date.now() + 30;
		while (Date.now() < end) { const t = performance.now(); if (t < last) return "decreased"; last = t; seen.push(t % 1); }
		return [seen.every((f) => f === 0), last >= 20]`)
	if !res.OK || string(res.Value) != "[true,true]" {
		t.Fatalf("performance.now is not whole, non-decreasing ms: %+v", res)
	}
}

// sameAsNodeCases compares each case (a function body; setup runs
// before all of them) with Node's, in one script: its value, or the
// name, code and message of what it throws.
func sameAsNodeCases(t *testing.T, setup string, cases []string) {
	t.Helper()
	requireNode(t)
	var b strings.Builder
	b.WriteString(setup)
	b.WriteString("\nconst out = [];\n")
	for _, c := range cases {
		b.WriteString("try { out.push(await (async () => {\n" + c + "\n})()); } catch (e) { out.push([\"throws\", String(e && e.name), e && e.code, String(e && e.message)]); }\n")
	}
	b.WriteString("return out;")
	code := b.String()
	// The cases share one execution: a deadline for all of them, on a
	// machine that may be busy.
	res := run(t, contract.Request{Code: code, Limits: contract.Limits{Timeout: 20 * time.Second}}, RunOptions{})
	got, want := wardenOutcome(res), runInNode(t, code, "")
	var gotCases, wantCases []json.RawMessage
	if !got.OK || !want.OK || json.Unmarshal(got.Value, &gotCases) != nil || json.Unmarshal(want.Value, &wantCases) != nil ||
		len(gotCases) != len(cases) || len(wantCases) != len(cases) {
		t.Fatalf("the cases did not run\nwarden: %s\n  node: %s", jsonText(got), jsonText(want))
	}
	for i, c := range cases {
		if compactJSON(gotCases[i]) != compactJSON(wantCases[i]) {
			t.Errorf("differs from Node for\n%s\nwarden: %s\n  node: %s", c, gotCases[i], wantCases[i])
		}
	}
}

func TestEventAsNode(t *testing.T) {
	sameAsNodeCases(t, `const desc = (o, k) => { const d = Object.getOwnPropertyDescriptor(o, k); return d && [typeof d.get, typeof d.set, typeof d.value, d.enumerable, d.configurable, d.writable]; };`, []string{
		`const e = new Event("x"); return [e.type, e.bubbles, e.cancelable, e.composed, e.defaultPrevented, e.isTrusted, e.eventPhase, e.target, e.currentTarget, e.srcElement, e.returnValue, e.cancelBubble, e.composedPath()]`,
		`const e = new Event("x", { bubbles: 1, cancelable: "y", composed: {} }); return [e.bubbles, e.cancelable, e.composed]`,
		`const e = new Event("x", { cancelable: true }); e.preventDefault(); return [e.defaultPrevented, e.returnValue]`,
		`const e = new Event("x"); e.preventDefault(); return [e.defaultPrevented, e.returnValue]`,
		`const e = new Event("x"); e.stopPropagation(); return e.cancelBubble`,
		`const e = new Event("x"); e.stopImmediatePropagation(); return e.cancelBubble`,
		`const e = new Event("x"); e.cancelBubble = false; const a = e.cancelBubble; e.cancelBubble = 1; return [a, e.cancelBubble]`,
		`const e = new Event("x"); e.initEvent("y", true, true); return [e.type, e.bubbles, e.cancelable]`,
		`const e = new Event("x"); e.initEvent(); return e.type`,
		`const e = new Event("x"); return [typeof e.timeStamp, e.timeStamp >= 0]`,
		`return new Event()`,
		`try { Event("x"); } catch (e) { return [e.name, e instanceof TypeError]; }`,
		`return new Event("x", 5).type`,
		`return new Event("x", "s").type`,
		`return new Event("x", null).type`,
		`return new Event("x", []).type`,
		`return [new Event(5).type, new Event(null).type, new Event(undefined).type, new Event({ toString() { return "q"; } }).type]`,
		`return new Event(Symbol("s")).type`,
		`return [Event.NONE, Event.CAPTURING_PHASE, Event.AT_TARGET, Event.BUBBLING_PHASE, Event.prototype.NONE, new Event("x").AT_TARGET]`,
		`return [Object.keys(Event), Object.keys(Event.prototype), Object.getOwnPropertyNames(Event.prototype).sort()]`,
		`return [Object.keys(new Event("x")), Object.getOwnPropertyNames(new Event("x"))]`,
		`return [desc(Event.prototype, "type"), desc(Event.prototype, "cancelBubble"), desc(Event.prototype, "preventDefault"), desc(Event.prototype, "returnValue"), desc(Event, "NONE")]`,
		`return [Object.prototype.toString.call(new Event("x")), String(new Event("x")), Event.name, Event.length, typeof Event]`,
		`return Object.getOwnPropertyDescriptor(Event.prototype, "type").get.call({})`,
		`return Object.getOwnPropertyDescriptor(Event.prototype, "type").get.call(Object.create(Event.prototype))`,
		`return Event.prototype.preventDefault.call(null)`,
		`class MyEvent extends Event { constructor() { super("mine", { cancelable: true }); this.extra = 1; } }
		 const e = new MyEvent(); return [e.type, e.cancelable, e.extra, e instanceof Event, Object.keys(e)]`,
		`let reads = []; new Event("x", { get bubbles() { reads.push("b"); }, get cancelable() { reads.push("c"); }, get composed() { reads.push("p"); }, get other() { reads.push("o"); } }); return reads`,
		`const e = new Event("x", { cancelable: true }); e.returnValue = false; return [e.defaultPrevented, e.returnValue]`,
		`return Object.getOwnPropertyDescriptor(globalThis, "Event").enumerable`,
	})
}

func TestEventTargetAsNode(t *testing.T) {
	sameAsNodeCases(t, `const T = () => new EventTarget();`, []string{
		`const t = T(), log = []; t.addEventListener("x", () => log.push(1)); t.addEventListener("x", () => log.push(2)); return [t.dispatchEvent(new Event("x")), log]`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f); t.addEventListener("x", f); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f); t.addEventListener("x", f, true); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f, { once: true }); t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f); t.removeEventListener("x", f); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f, true); t.removeEventListener("x", f); t.dispatchEvent(new Event("x")); t.removeEventListener("x", f, true); t.dispatchEvent(new Event("x")); t.removeEventListener("x", f, { capture: true }); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => log.push("f"); t.addEventListener("x", f, { capture: true }); t.removeEventListener("x", f, { capture: 1 }); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const o = { handleEvent(e) { log.push([this === o, e.type]); } }; t.addEventListener("x", o); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; t.addEventListener("x", function (e) { log.push([this === t, e.target === t, e.currentTarget === t, e.eventPhase, e.composedPath().length, e.srcElement === t]); }); const e = new Event("x"); t.dispatchEvent(e); return [log, e.target === t, e.currentTarget, e.eventPhase, e.composedPath()]`,
		`const t = T(), log = []; t.addEventListener("x", (e) => { log.push(1); e.stopImmediatePropagation(); }); t.addEventListener("x", () => log.push(2)); t.addEventListener("x", () => log.push(3), { passive: true }); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; t.addEventListener("x", (e) => { log.push(1); e.stopPropagation(); }); t.addEventListener("x", () => log.push(2)); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(); t.addEventListener("x", (e) => e.preventDefault()); return [t.dispatchEvent(new Event("x", { cancelable: true })), t.dispatchEvent(new Event("x"))]`,
		`const t = T(), log = []; t.addEventListener("x", (e) => { e.preventDefault(); log.push(e.defaultPrevented); }, { passive: true }); return [t.dispatchEvent(new Event("x", { cancelable: true })), log]`,
		`const t = T(), log = []; const b = () => log.push("b"); t.addEventListener("x", () => { log.push("a"); t.addEventListener("x", () => log.push("added")); t.removeEventListener("x", b); }); t.addEventListener("x", b); t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(); const e = new Event("w"); let err; t.addEventListener("w", (ev) => { try { t.dispatchEvent(ev); } catch (x) { err = [x.name, x.code, x.message]; } }); t.dispatchEvent(e); return [err, t.dispatchEvent(e)]`,
		`const t = T(), u = T(), log = []; const e = new Event("x"); u.addEventListener("x", (ev) => log.push(ev.target === u)); t.addEventListener("x", (ev) => { log.push(ev.target === t); }); t.dispatchEvent(e); u.dispatchEvent(e); return log`,
		`return T().dispatchEvent({})`,
		`return T().dispatchEvent()`,
		`return T().dispatchEvent(null)`,
		`return T().addEventListener("x", 5)`,
		`return T().addEventListener("x", "f")`,
		`return T().addEventListener("x")`,
		`return T().addEventListener()`,
		`return T().addEventListener("x", null)`,
		`return T().addEventListener("x", undefined)`,
		`return T().addEventListener("x", () => {}, 5)`,
		`return T().addEventListener("x", () => {}, null)`,
		`return T().addEventListener("x", () => {}, { signal: 1 })`,
		`return T().addEventListener("x", () => {}, { signal: null })`,
		`return T().removeEventListener("x", 5)`,
		`return T().removeEventListener("x")`,
		`return T().removeEventListener("x", () => {})`,
		`return EventTarget.prototype.addEventListener.call({}, "x", () => {})`,
		`return EventTarget.prototype.dispatchEvent.call(null, new Event("x"))`,
		`try { EventTarget(); } catch (e) { return [e.name, e instanceof TypeError]; }`,
		`const t = T(), log = []; t.addEventListener("x", { handleEvent: undefined }); t.addEventListener("x", {}); t.addEventListener("x", () => log.push("ok")); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const o = {}; t.addEventListener("x", o); o.handleEvent = () => log.push("late"); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; t.addEventListener(5, () => log.push("5")); t.dispatchEvent(new Event("5")); t.addEventListener({ toString() { return "o"; } }, () => log.push("o")); t.dispatchEvent(new Event("o")); return log`,
		`const t = T(), log = []; const ac = new AbortController(); t.addEventListener("x", () => log.push("f"), { signal: ac.signal }); t.dispatchEvent(new Event("x")); ac.abort(); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; t.addEventListener("x", () => log.push("f"), { signal: AbortSignal.abort() }); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const ac = new AbortController(); const f = () => log.push("f"); t.addEventListener("x", f, { signal: ac.signal, capture: true }); t.addEventListener("x", f); ac.abort(); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; let reads = []; t.addEventListener("x", () => {}, { get once() { reads.push("once"); }, get capture() { reads.push("capture"); }, get passive() { reads.push("passive"); }, get signal() { reads.push("signal"); } }); return reads`,
		`class Emitter extends EventTarget { fire() { return this.dispatchEvent(new Event("fire")); } } const e = new Emitter(), log = []; e.addEventListener("fire", (ev) => log.push(ev.target === e)); return [e.fire(), log, e instanceof EventTarget]`,
		`return [Object.keys(EventTarget.prototype), Object.prototype.toString.call(T()), EventTarget.length, EventTarget.prototype.addEventListener.length, EventTarget.prototype.removeEventListener.length, EventTarget.prototype.dispatchEvent.length, Object.keys(T())]`,
		`const t = T(), log = []; for (let i = 0; i < 5; i++) t.addEventListener("x", () => log.push(i), { once: i % 2 === 0 }); t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const fs = [1, 2, 3].map((i) => () => { log.push(i); if (i === 1) t.removeEventListener("x", fs[1]); }); fs.forEach((f) => t.addEventListener("x", f)); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; const f = () => { log.push("f"); t.removeEventListener("x", f); t.addEventListener("x", f); }; t.addEventListener("x", f); t.dispatchEvent(new Event("x")); return log`,
		`const t = T(), log = []; t.addEventListener("x", async () => { log.push("async"); }); return [t.dispatchEvent(new Event("x")), log]`,
		`const t = T(), log = []; t.addEventListener("x", () => 5); t.addEventListener("x", () => ({ then: 1 })); t.addEventListener("x", () => log.push("after")); t.dispatchEvent(new Event("x")); return log`,
		`return Object.getOwnPropertyDescriptor(globalThis, "EventTarget").enumerable`,
	})
}

func TestAbortAsNode(t *testing.T) {
	sameAsNodeCases(t, `const r = (e) => e instanceof DOMException ? ["DOMException", e.name, e.message, e.code] : e;`, []string{
		`const c = new AbortController(); const s = c.signal; return [s.aborted, s.reason, s === c.signal, s instanceof EventTarget, s instanceof AbortSignal]`,
		`const c = new AbortController(); c.abort(); return [c.signal.aborted, r(c.signal.reason)]`,
		`const c = new AbortController(); c.abort("why"); return [c.signal.aborted, c.signal.reason]`,
		`const c = new AbortController(); c.abort(undefined); return r(c.signal.reason)`,
		`const c = new AbortController(); c.abort(null); return c.signal.reason`,
		`const c = new AbortController(); c.abort(1); c.abort(2); return c.signal.reason`,
		`const c = new AbortController(), log = []; c.signal.addEventListener("abort", (e) => log.push([e.type, e.isTrusted, e.target === c.signal, c.signal.aborted, c.signal.reason, e.cancelable, e.bubbles])); c.abort("r"); c.abort("again"); return log`,
		`const c = new AbortController(), log = []; c.signal.onabort = (e) => log.push(["on", e.type, this === undefined]); c.signal.addEventListener("abort", () => log.push("listener")); c.abort(); return log`,
		`const c = new AbortController(), log = []; c.signal.addEventListener("abort", () => log.push("first")); c.signal.onabort = () => log.push("on1"); c.signal.onabort = () => log.push("on2"); c.signal.addEventListener("abort", () => log.push("last")); c.abort(); return log`,
		`const c = new AbortController(), log = []; c.signal.onabort = () => log.push("on"); c.signal.onabort = null; c.abort(); return [log, c.signal.onabort]`,
		`const s = new AbortController().signal; const a = s.onabort; s.onabort = 5; const b = s.onabort; const o = {}; s.onabort = o; return [a, b, s.onabort === o]`,
		`const c = new AbortController(), log = []; let self; c.signal.onabort = function () { self = this; }; c.abort(); return self === c.signal`,
		`const c = new AbortController(); c.abort(new Error("e")); try { c.signal.throwIfAborted(); } catch (e) { return [e === c.signal.reason, e.message]; }`,
		`const c = new AbortController(); return c.signal.throwIfAborted()`,
		`const s = AbortSignal.abort("x"); try { s.throwIfAborted(); } catch (e) { return e; }`,
		`const s = AbortSignal.abort(); return [s.aborted, r(s.reason)]`,
		`const s = AbortSignal.abort(undefined); return r(s.reason)`,
		`return new AbortSignal()`,
		`try { AbortSignal(); } catch (e) { return [e.name, e instanceof TypeError]; }`,
		`return Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted").get.call({})`,
		`return AbortSignal.prototype.throwIfAborted.call(new EventTarget())`,
		`return Object.getOwnPropertyDescriptor(AbortController.prototype, "signal").get.call({})`,
		`return AbortController.prototype.abort.call(null)`,
		`return [Object.keys(AbortSignal.prototype), Object.keys(AbortController.prototype), Object.keys(AbortSignal), Object.getOwnPropertyNames(AbortSignal.prototype).sort(), Object.getOwnPropertyNames(AbortSignal).sort()]`,
		`return [AbortSignal.abort.length, AbortSignal.timeout.length, AbortSignal.any.length, AbortController.length, AbortController.prototype.abort.length, AbortSignal.name, AbortController.name]`,
		`return [Object.prototype.toString.call(new AbortController()), Object.prototype.toString.call(AbortSignal.abort()), Object.keys(new AbortController()), Object.keys(AbortSignal.abort())]`,
		`return [Object.getOwnPropertyDescriptor(globalThis, "AbortController").enumerable, Object.getOwnPropertyDescriptor(globalThis, "AbortSignal").enumerable]`,
		`const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]); const before = s.aborted; b.abort("b"); a.abort("a"); return [before, s.aborted, s.reason]`,
		`const s = AbortSignal.any([new AbortController().signal, AbortSignal.abort("x"), AbortSignal.abort("y")]); return [s.aborted, s.reason]`,
		`const s = AbortSignal.any([]); return [s.aborted, s.reason]`,
		`const a = new AbortController(); const s1 = AbortSignal.any([a.signal]); const s2 = AbortSignal.any([s1]); const log = []; s1.onabort = () => log.push("s1"); s2.onabort = () => log.push("s2"); a.signal.onabort = () => log.push("a"); a.abort(); return [log, s2.reason.name]`,
		`const a = new AbortController(); const s = AbortSignal.any([a.signal, a.signal]); const log = []; s.onabort = () => log.push(s.reason); a.abort(7); return log`,
		`return AbortSignal.any(5)`,
		`return AbortSignal.any([1])`,
		`return AbortSignal.any([AbortSignal.abort(), {}])`,
		`return AbortSignal.any()`,
		`return AbortSignal.any(new Set([AbortSignal.abort()]))`,
		`return AbortSignal.timeout(-1)`,
		`return AbortSignal.timeout("1")`,
		`return AbortSignal.timeout(1.5)`,
		`return AbortSignal.timeout(NaN)`,
		`return AbortSignal.timeout(Infinity)`,
		`return AbortSignal.timeout(4294967296)`,
		`return AbortSignal.timeout(-12345678901)`,
		`return AbortSignal.timeout()`,
		`const c = new AbortController(), log = []; c.signal.addEventListener("abort", (e) => { log.push(1); e.stopImmediatePropagation(); }); c.signal.addEventListener("abort", () => log.push(2)); c.abort(); return log`,
		`const c = new AbortController(), t = new EventTarget(), log = []; c.signal.addEventListener("abort", (e) => { e.stopImmediatePropagation(); }); t.addEventListener("x", () => log.push("x"), { signal: c.signal }); c.abort(); t.dispatchEvent(new Event("x")); return log`,
		`const c = new AbortController(), log = []; c.signal.addEventListener("abort", () => log.push("once"), { once: true }); c.abort(); c.signal.dispatchEvent(new Event("abort")); return log`,
		`class C extends AbortController {} const c = new C(); c.abort("sub"); return [c.signal.reason, c instanceof AbortController]`,
	})
}

// TestAbortSignalTimeoutAsNode needs timers (web.setTimeout).
func TestAbortSignalTimeoutAsNode(t *testing.T) {
	if res := runCode(t, `return typeof setTimeout`); string(res.Value) == `"undefined"` {
		t.Skip("setTimeout is not in the engine yet (child/engine/web/15-timers.js): AbortSignal.timeout cannot fire")
	}
	sameAsNode(t, `const s = AbortSignal.timeout(5); const before = s.aborted; const log = [];
		s.onabort = (e) => log.push([e.type, s.reason.name, s.reason.message, s.reason.code, s.reason instanceof DOMException]);
		await new Promise((r) => setTimeout(r, 30));
		return [before, s.aborted, log]`, "")
	// The timer behind a signal keeps nothing waiting, as Node's is unref'd:
	// the result does not wait for it.
	sameAsNode(t, `const s = AbortSignal.timeout(100000); return [s.aborted, s.reason]`, "")
	// Node's signal timer keeps no process alive: a timer of the code's does.
	sameAsNode(t, `const keep = setTimeout(() => {}, 5000);
		const s = AbortSignal.any([AbortSignal.timeout(5), new AbortController().signal]);
		await new Promise((r) => s.addEventListener("abort", r));
		clearTimeout(keep);
		return [s.aborted, s.reason.name]`, "")
}

// TestAbortSignalTimeoutWithoutTimers: with no timers in the engine,
// AbortSignal.timeout says so.
func TestAbortSignalTimeoutWithoutTimers(t *testing.T) {
	if res := runCode(t, `return typeof setTimeout`); string(res.Value) != `"undefined"` {
		t.Skip("the engine has timers")
	}
	res := runCode(t, `return AbortSignal.timeout(5)`)
	if res.OK || !strings.Contains(res.Error.Message, "timers are not available") {
		t.Fatalf("got %+v", res)
	}
}

// TestListenerThrows: a listener that throws ends the execution with its
// error once the dispatch is over (Node's process dies of it: not
// comparable); the listeners after it still run, and the code cannot
// catch it.
func TestListenerThrows(t *testing.T) {
	for _, tc := range []struct{ name, code, msg string }{
		{"function", `const t = new EventTarget(); t.addEventListener("x", () => { throw new TypeError("boom"); });
			t.addEventListener("x", () => console.log("after")); try { t.dispatchEvent(new Event("x")); } catch (e) { return "caught"; }
			await new Promise(() => {});`, "boom"},
		{"handleEvent", `const t = new EventTarget(); t.addEventListener("x", { handleEvent() { throw new TypeError("boom"); } });
			t.addEventListener("x", () => console.log("after")); t.dispatchEvent(new Event("x")); await new Promise(() => {});`, "boom"},
		{"rejection", `const t = new EventTarget(); t.addEventListener("x", async () => { throw new TypeError("boom"); });
			t.addEventListener("x", () => console.log("after")); t.dispatchEvent(new Event("x")); await new Promise(() => {});`, "boom"},
		{"onabort", `const c = new AbortController(); c.signal.onabort = () => { throw new TypeError("boom"); };
			c.signal.addEventListener("abort", () => console.log("after")); c.abort(); await new Promise(() => {});`, "boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runCode(t, tc.code)
			if res.OK || res.Error.Type != contract.UserCodeError || res.Error.Name != "TypeError" || res.Error.Message != tc.msg {
				t.Fatalf("got %+v", res)
			}
			if len(res.Logs) != 1 || res.Logs[0].Text != "after" {
				t.Fatalf("the listener after the throwing one did not run: %+v", res.Logs)
			}
		})
	}
}

// structuredCloneCases are compared with Node one by one; shape(v)
// describes a clone beyond its JSON.
var structuredCloneCases = []string{
	`return [1, "s", true, null, 1.5, -1].map((v) => structuredClone(v))`,
	`return [Object.is(structuredClone(-0), -0), Number.isNaN(structuredClone(NaN)), structuredClone(undefined) === undefined, String(structuredClone(2n ** 70n)), structuredClone(Infinity) === Infinity]`,
	`return structuredClone(Symbol("x"))`,
	`return structuredClone(function foo(a) { return a; })`,
	`return structuredClone({ a: () => 1 })`,
	`return structuredClone(class A {})`,
	`return structuredClone(new WeakMap())`,
	`return structuredClone(new WeakSet())`,
	`return structuredClone(new WeakRef({}))`,
	`return structuredClone(new FinalizationRegistry(() => {}))`,
	`return structuredClone(Promise.resolve())`,
	`return structuredClone([1, Promise.reject(new Error("x")).catch(() => {})])`,
	`return structuredClone(Object(Symbol("s")))`,
	`return structuredClone(globalThis)`,
	`return structuredClone()`,
	`return structuredClone(1, 5)`,
	`return structuredClone(1, "s")`,
	`return structuredClone(1, null)`,
	`return structuredClone(1, () => {})`,
	`return structuredClone(1, [])`,
	`return structuredClone(1, { transfer: 5 })`,
	`return structuredClone(1, { transfer: "ab" })`,
	`return structuredClone(1, { transfer: {} })`,
	`const b = new ArrayBuffer(2); return [structuredClone(b, { transfer: { length: 1, 0: b } }).byteLength, b.byteLength]`,
	`return structuredClone(1, { transfer: { *[Symbol.iterator]() { yield 5; } } })`,
	`const b = new ArrayBuffer(2); return [structuredClone(1, { transfer: { *[Symbol.iterator]() { yield b; } } }), b.byteLength]`,
	`return structuredClone(1, { transfer: null })`,
	`return structuredClone(1, { transfer: undefined })`,
	`return structuredClone(1, { transfer: [5] })`,
	`return structuredClone(1, { transfer: [{}] })`,
	`return structuredClone(1, { transfer: [new Uint8Array(2)] })`,
	`const b = new ArrayBuffer(2); return structuredClone(b, { transfer: [b, b] })`,
	`const b = new ArrayBuffer(2); structuredClone(b, { transfer: [b] }); return structuredClone(b)`,
	`const b = new ArrayBuffer(2); const u = new Uint8Array(b); structuredClone(b, { transfer: [b] }); return structuredClone(u)`,
	`const b = new ArrayBuffer(4); new Uint8Array(b)[0] = 9; const u = new Uint8Array(b, 1); const c = structuredClone({ u, b }, { transfer: [b] }); return [b.byteLength, c.b.byteLength, c.u.buffer === c.b, c.u.byteOffset, new Uint8Array(c.b)[0], u.length]`,
	`const b = new ArrayBuffer(4); const c = structuredClone(1, { transfer: [b] }); return [c, b.byteLength]`,
	`const b = new ArrayBuffer(4); const c = structuredClone(b, { transfer: new Set([b]) }); return [c.byteLength, b.byteLength]`,
	`const log = []; structuredClone({ get a() { log.push("value"); } }, { get transfer() { log.push("transfer"); return []; } }); return log`,
	`const e = structuredClone(new Error("m", { cause: 5 })); return [e.message, e.cause, "cause" in e, Object.getOwnPropertyNames(e).sort(), e instanceof Error]`,
	`return [new TypeError("t"), new RangeError("r"), new SyntaxError("s"), new ReferenceError("f"), new EvalError("e"), new URIError("u"), new AggregateError([1], "ag"), new Error("plain")].map((e) => { const c = structuredClone(e); return [c.name, c.constructor.name, c.message, c instanceof Error, c.stack === e.stack, c.errors, c !== e]; })`,
	`const e = new Error("m"); e.name = "TypeError"; const c = structuredClone(e); return [c.name, c.constructor.name]`,
	`const e = new Error("m"); e.name = "Custom"; const c = structuredClone(e); return [c.name, c.constructor.name]`,
	`class MyErr extends TypeError {} const c = structuredClone(new MyErr("x")); return [c.name, c.constructor.name, c instanceof TypeError, c instanceof MyErr]`,
	`const c = structuredClone(new Error()); return [Object.hasOwn(c, "message"), c.message]`,
	`const e = new Error("x"); e.extra = 1; e.code = "E"; const c = structuredClone(e); return [c.extra, c.code]`,
	`const e = new Error("x"); Object.defineProperty(e, "message", { get() { return "g"; } }); const c = structuredClone(e); return [c.message, Object.hasOwn(c, "message")]`,
	`const e = new Error("x"); e.message = 5; const c = structuredClone(e); return [c.message, typeof c.message]`,
	`const e = new Error("x"); Object.defineProperty(e, "stack", { value: 5 }); const c = structuredClone(e); return [c.stack, Object.hasOwn(c, "stack")]`,
	`const e = new Error("x"); e.stack = "custom stack"; return structuredClone(e).stack`,
	`const log = []; const e = new Error("m", { cause: { get x() { log.push("cause"); } } }); Object.defineProperty(e, "stack", { get() { log.push("stack"); return "S"; } }); Object.defineProperty(e, "name", { get() { log.push("name"); return "RangeError"; } }); const c = structuredClone(e); return [log, c.stack, c.name]`,
	`return structuredClone(new Error("x", { cause: () => 1 }))`,
	`const e = Object.create(Error.prototype); e.message = "m"; const c = structuredClone(e); return [c instanceof Error, c.message, Object.getOwnPropertyNames(c)]`,
	`const c = structuredClone(new DOMException("m", "AbortError")); return [c.name, c.message, c.code, c instanceof DOMException, Object.prototype.toString.call(c), c]`,
	`const b = new ArrayBuffer(2, { maxByteLength: 8 }); const c = structuredClone(b); return [c.resizable, c.maxByteLength, c.byteLength]`,
	`const b = new SharedArrayBuffer(2); const c = structuredClone(b); new Uint8Array(c)[0] = 7; return [Object.prototype.toString.call(c), new Uint8Array(b)[0]]`,
	`return [structuredClone(Math), structuredClone(JSON), structuredClone(Reflect)]`,
	`return [structuredClone(new Event("x")), structuredClone(AbortSignal.abort()), structuredClone(new AbortController()), structuredClone(new EventTarget())]`,
	`const r = /a+b/gimsuy; r.lastIndex = 3; r.x = 1; const c = structuredClone(r); return [c.source, c.flags, c.lastIndex, c.x, c.test("aab"), c !== r]`,
	`return [/x/d, /x/v, /[/]\//, new RegExp("")].map((r) => { const c = structuredClone(r); return [c.source, c.flags]; })`,
	`const d = new Date(5); d.x = 1; const c = structuredClone(d); return [c.getTime(), c.x, c instanceof Date, c !== d]`,
	`return [structuredClone(new Date(NaN)).getTime(), structuredClone(new Date(8.64e15)).toISOString()]`,
	`const a = [1, , 3]; a.x = "y"; a[10] = 5; const c = structuredClone(a); return [c.length, 1 in c, c.x, Object.keys(c), Array.isArray(c)]`,
	`const a = []; a[1e6] = 1; const c = structuredClone(a); return [c.length, Object.keys(c)]`,
	`const a = [1, 2, 3]; a.length = 5; const c = structuredClone(a); return [c.length, Object.keys(c)]`,
	`const log = []; const o = { get a() { log.push("a"); return { get b() { log.push("b"); return 1; } }; }, get c() { log.push("c"); delete this.d; return 2; }, d: 3, e: 4 }; const c = structuredClone(o); return [log, c, Object.keys(c)]`,
	`const log = []; const o = { a: 1, get b() { log.push("b"); this.z = 9; return 2; } }; const c = structuredClone(o); return [c, log]`,
	`return structuredClone({ get a() { throw new RangeError("g"); } })`,
	`const log = []; try { structuredClone({ get a() { log.push("a"); return 1; }, b: Symbol(), get c() { log.push("c"); } }); } catch (e) { return [log, e.name, e.message]; }`,
	`return [Object(1), Object("s"), Object(true), Object(1n), Object(-0), Object(false)].map((b) => { const c = structuredClone(b); return [typeof c, Object.prototype.toString.call(c), String(c), c === b]; })`,
	`const s = Object("ab"); s.x = 1; const c = structuredClone(s); return [Object.keys(c), c.x]`,
	`const o = Object.create(null); o.a = 1; const c = structuredClone(o); return [Object.getPrototypeOf(c) === Object.prototype, c]`,
	`const o = { [Symbol("s")]: 1, a: 2 }; Object.defineProperty(o, "h", { value: 3, enumerable: false }); return [structuredClone(o), Object.getOwnPropertySymbols(structuredClone(o)).length]`,
	`const m = new Map(); m.set(m, m); const c = structuredClone(m); return [c.get(c) === c, c.size, c !== m]`,
	`const m = new Map([[1, 2]]); m.x = 1; const c = structuredClone(m); return [c.x, [...c]]`,
	`const k = {}; const m = new Map([[k, { k }], ["s", [k]]]); const c = structuredClone(m); const [ck] = c.keys(); return [c.get(ck).k === ck, c.get("s")[0] === ck, ck !== k]`,
	`const s = new Set([1, "a", { x: 1 }, [2]]); const c = structuredClone(s); return [[...c], c instanceof Set, c !== s]`,
	`const s = new Set(); s.add(s); const c = structuredClone(s); return [c.has(c), c.size]`,
	`const log = []; const m = new Map([["a", { get x() { log.push("ax"); m.set("late", 1); return 1; } }], ["b", 2]]); const c = structuredClone(m); return [[...c.keys()], log]`,
	`const b = new ArrayBuffer(8); const d = new DataView(b, 2, 4); const u = new Uint16Array(b, 2, 2); const c = structuredClone({ d, u }); return [c.d.buffer === c.u.buffer, c.d.byteOffset, c.d.byteLength, c.u.length, c.d.buffer.byteLength, c.d instanceof DataView]`,
	`const u = new Uint8Array(2); u.x = 1; return structuredClone(u).x`,
	`const b = new ArrayBuffer(2); b.x = 1; return structuredClone(b).x`,
	`const u = new Uint8Array([1, 2, 3, 4]).subarray(1, 3); const c = structuredClone(u); return [c.byteOffset, c.buffer.byteLength, [...c]]`,
	`return [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array].map((T) => { const a = new T([1, -2, 300, 4.5]); const c = structuredClone(a); return [c.constructor.name, [...c], c.buffer !== a.buffer]; })`,
	`return [BigInt64Array, BigUint64Array].map((T) => { const c = structuredClone(new T([1n, 2n ** 63n])); return [c.constructor.name, c.map(String).join()]; })`,
	`const c = structuredClone(new Float64Array([NaN, -0])); return [Number.isNaN(c[0]), Object.is(c[1], -0)]`,
	`return [structuredClone(new Uint8Array(0)).length, structuredClone([,]).length, 0 in structuredClone([,])]`,
	`const b = new ArrayBuffer(3); new Uint8Array(b).set([7, 8, 9]); const c = structuredClone(b); return [c !== b, [...new Uint8Array(c)], c.byteLength]`,
	`const o = { a: 1 }; const c = structuredClone({ x: o, y: o, z: [o] }); return [c.x === c.y, c.z[0] === c.x, c.x !== o]`,
	`const o = { n: 1 }; o.self = o; o.arr = [o]; const c = structuredClone(o); return [c.self === c, c.arr[0] === c, c !== o]`,
	`class P { constructor() { this.x = 1; } get y() { return 2; } m() {} } const c = structuredClone(new P()); return [c, c.constructor === Object, Object.getPrototypeOf(c) === Object.prototype]`,
	`class M extends Map {} const c = structuredClone(new M([[1, 2]])); return [c.constructor.name, [...c]]`,
	`class D extends Date {} const c = structuredClone(new D(3)); return [c.constructor.name, c.getTime()]`,
	`const o = {}; Object.defineProperty(o, "g", { get() { return 1; }, enumerable: true }); const c = structuredClone(o); return Object.getOwnPropertyDescriptor(c, "g")`,
	`const o = Object.freeze({ a: [1] }); const c = structuredClone(o); return [Object.isFrozen(c), Object.isFrozen(o)]`,
	`return structuredClone({ 2: "b", 1: "a", z: 1, y: 2 })`,
	`return [structuredClone.length, structuredClone.name, Object.getOwnPropertyDescriptor(globalThis, "structuredClone").enumerable, typeof structuredClone]`,
	`return structuredClone({ d: new Date(0), r: /x/g, m: new Map([["k", new Set([1])]]) }, undefined).m.get("k").has(1)`,
	`return structuredClone(new String("str")).length`,
}

func TestStructuredCloneAsNode(t *testing.T) {
	sameAsNodeCases(t, "", structuredCloneCases)
}

// domUse exercises every global of this file; domPoison poisons the
// intrinsics they use (setters on the prototypes, replaced methods)
// around it. domUse fills its arrays with add, which no poison reaches.
const domUse = `const out = list(), log = list();
		const c = structuredClone(src);
		add(out, c.m.size); add(out, c.d.toISOString()); add(out, c.s.size); add(out, c.u.length); add(out, c.e.name);
		add(out, c.e.message); add(out, rapply(mapGet, c.m, [1]).a[1]); add(out, c.r.flags); add(out, c !== src && c.m !== m);
		const t = new EventTarget();
		t.addEventListener("x", (e) => add(log, e.type));
		t.addEventListener("x", { handleEvent(e) { add(log, "obj"); } }, { once: true });
		add(out, t.dispatchEvent(new Event("x"))); add(out, t.dispatchEvent(new Event("x", { cancelable: true })));
		const ac = new AbortController();
		ac.signal.onabort = () => add(log, "abort");
		const any = AbortSignal.any([ac.signal]);
		ac.abort("r");
		add(out, any.reason); add(out, ac.signal.aborted);
		queueMicrotask(() => add(log, "micro"));
		await null;
		add(out, log); add(out, typeof performance.now());
		return out;`

// domErrors adds the errors the globals throw to domUse (Node's own
// error paths break under the poisons: compared with the clean run only).
var domErrors = strings.Replace(domUse, "return out;", `const code = (f) => { try { f(); return "no error"; } catch (e) { return [e.name, e.code, e.message]; } };
		add(out, code(() => new Event())); add(out, code(() => structuredClone(() => {}))); add(out, code(() => queueMicrotask(1)));
		add(out, code(() => AbortSignal.timeout(-1))); add(out, code(() => t.dispatchEvent({}))); add(out, code(() => structuredClone(1, { transfer: [1] })));
		return out;`, 1)

func domPoison(indices, keys, use string) string {
	return `const gopd = Object.getOwnPropertyDescriptor, dp = Object.defineProperty, setProto = Object.setPrototypeOf;
		const rapply = Reflect.apply, mapGet = Map.prototype.get;
		const list = () => setProto([], null);
		const add = (a, v) => { dp(a, a.length, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true }); };
		const trap = (name) => function () { throw new Error("poisoned " + name); };
		const plan = list();
		const replace = (o, names) => { for (const k of names) add(plan, [o, k, { __proto__: null, value: trap(k), writable: true, configurable: true }]); };
		replace(Map.prototype, ["set", "get", "forEach"]); replace(Set.prototype, ["add", "has"]); replace(WeakMap.prototype, ["get", "set"]);
		replace(Function.prototype, ["call", "apply"]); replace(Reflect, ["apply"]);
		replace(Object, ["defineProperty", "keys", "hasOwn", "getOwnPropertyDescriptor", "getPrototypeOf", "setPrototypeOf"]);
		replace(Array, ["isArray"]); replace(Error, ["isError"]); replace(Date.prototype, ["getTime"]); replace(ArrayBuffer.prototype, ["slice"]);
		replace(RegExp.prototype, ["exec"]); replace(Symbol.prototype, ["toString"]);
		for (const i of [` + indices + `]) add(plan, [Array.prototype, i, { __proto__: null, set: trap("index " + i), configurable: true }]);
		for (const k of [` + keys + `]) add(plan, [Object.prototype, k, { __proto__: null, set: trap(k), configurable: true }]);
		// The value to clone is built before the poison (new Map calls set).
		const m = new Map([[1, { a: [1, 2] }]]);
		const src = { d: new Date(0), m, s: new Set([1]), u: new Uint8Array([1, 2]), e: new TypeError("t"), r: /x/g };
		const saved = list();
		for (let i = 0; i < plan.length; i++) add(saved, gopd(plan[i][0], plan[i][1]));
		for (let i = 0; i < plan.length; i++) dp(plan[i][0], plan[i][1], plan[i][2]);
		let result, failed;
		try { result = await (async () => {` + use + `})(); } catch (e) { failed = e; }
		for (let i = plan.length - 1; i >= 0; i--) {
			if (saved[i]) dp(plan[i][0], plan[i][1], saved[i]); else delete plan[i][0][plan[i][1]];
		}
		if (failed) throw failed;
		return result;`
}

// domClean is use with nothing poisoned.
func domClean(t *testing.T, use string) contract.Result {
	res := runCode(t, domPoison(``, ``, `for (let i = plan.length - 1; i >= 0; i--) { if (saved[i]) dp(plan[i][0], plan[i][1], saved[i]); else delete plan[i][0][plan[i][1]]; }`+use))
	if !res.OK {
		t.Fatalf("domUse failed unpoisoned: %+v", res.Error)
	}
	return res
}

// TestDOMTamper: poisoned intrinsics change nothing these globals
// return: the result is the one without poison, and Node's.
func TestDOMTamper(t *testing.T) {
	res := sameAsNode(t, domPoison(``, `"memo", "kind", "code", "top", "out", "items"`, domUse), "")
	if clean := domClean(t, domUse); !res.OK || compactJSON(res.Value) != compactJSON(clean.Value) {
		t.Fatalf("poisoned %s %+v, clean %s", res.Value, res.Error, clean.Value)
	}
}

// TestDOMTamperDescriptors: setters for Array.prototype's indices, for a
// descriptor's own fields on Object.prototype, and for next and handler
// (all of which break Node itself) change nothing either.
func TestDOMTamperDescriptors(t *testing.T) {
	res := runCode(t, domPoison(`"0", "1", "2", "3"`, `"value", "get", "set", "writable", "enumerable", "configurable", "next", "handler", "memo"`, domErrors))
	if clean := domClean(t, domErrors); !res.OK || compactJSON(res.Value) != compactJSON(clean.Value) {
		t.Fatalf("poisoned %s %+v, clean %s", res.Value, res.Error, clean.Value)
	}
}

// TestStructuredCloneDeviations: where Warden's clone differs from Node's
// on purpose or of necessity (README, structuredClone).
func TestStructuredCloneDeviations(t *testing.T) {
	for _, tc := range []struct{ name, code, want string }{
		// JavaScript cannot tell a Proxy from its target: it clones through
		// its traps (V8: DataCloneError).
		{"proxy", `return structuredClone(new Proxy({ a: [1] }, {}))`, `{"a":[1]}`},
		// V8 fails to deserialize an error that is its own cause.
		{"error cause cycle", `const e = new Error("x"); e.cause = e; const c = structuredClone(e); return [c.cause === c, c !== e]`, `[true,true]`},
		// Objects V8 refuses by their internal type but JavaScript cannot
		// tell from plain ones without running them: generators, iterators,
		// arguments objects clone as plain objects.
		{"generator", `return structuredClone((function* () { yield 1; })())`, `{}`},
		{"map iterator", `return structuredClone(new Map([[1, 2]]).entries())`, `{}`},
		{"arguments", `return structuredClone((function () { return arguments; })(1, 2))`, `{"0":1,"1":2}`},
		// A detached buffer in the transfer list is refused (Node returns {}).
		{"detached in transfer", `const b = new ArrayBuffer(2); structuredClone(b, { transfer: [b] });
			try { structuredClone(b, { transfer: [b] }); } catch (e) { return [e.name, e.message]; }`,
			`["DataCloneError","An ArrayBuffer is detached and could not be cloned."]`},
		// An object given Object.prototype is taken by its prototype.
		{"reprototyped map", `const m = new Map([[1, 2]]); Object.setPrototypeOf(m, Object.prototype); m.k = 1; return structuredClone(m)`, `{"k":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runCode(t, tc.code)
			if !res.OK || compactJSON(res.Value) != tc.want {
				t.Fatalf("got %s %+v, want %s", res.Value, res.Error, tc.want)
			}
		})
	}
}

// TestEventOrderingAsNode: listeners, microtasks, promise reactions and
// abort propagation interleave as in Node.
func TestEventOrderingAsNode(t *testing.T) {
	sameAsNode(t, `const log = [];
		const t = new EventTarget();
		t.addEventListener("x", (e) => { log.push("l1 " + e.type); queueMicrotask(() => log.push("m1")); Promise.resolve().then(() => log.push("p1")); });
		t.addEventListener("x", async (e) => { log.push("l2 start"); await null; log.push("l2 after await " + (e.currentTarget === null)); });
		t.addEventListener("x", { handleEvent() { log.push("l3"); queueMicrotask(() => t.dispatchEvent(new Event("y"))); } });
		t.addEventListener("y", () => log.push("y"));
		queueMicrotask(() => log.push("m0"));
		log.push("before " + t.dispatchEvent(new Event("x")));
		const a = new AbortController(), b = new AbortController();
		const any1 = AbortSignal.any([a.signal, b.signal]), any2 = AbortSignal.any([any1]), any3 = AbortSignal.any([b.signal, a.signal]);
		for (const [name, s] of [["a", a.signal], ["any1", any1], ["any2", any2], ["any3", any3], ["b", b.signal]]) {
			s.addEventListener("abort", () => { log.push("abort " + name + " " + s.reason); queueMicrotask(() => log.push("after abort " + name)); });
		}
		Promise.resolve().then(() => a.abort("A"));
		queueMicrotask(() => b.abort("B"));
		for (let i = 0; i < 8; i++) await null;
		return log;`, "")
}

// TestAbortSignalTimeoutOnAFakeTimer runs AbortSignal.timeout on a
// prelude whose web.setTimeout is a stand-in (it fires after ms turns
// of the job queue), so that its path is compared with Node's before
// the real timers exist.
func TestAbortSignalTimeoutOnAFakeTimer(t *testing.T) {
	marker := "  // web/40-events.js\n"
	if !strings.Contains(preludeSource(), marker) {
		t.Fatal("the prelude has no 40-events.js")
	}
	fake := `  web.setTimeout = function (fn, ms) {
    let n = ms;
    const tick = function () { if (n-- <= 0) fn(); else web.enqueueJob(tick); };
    web.enqueueJob(tick);
    return 1;
  };
`
	ctx := context.Background()
	vm, err := testEngine.newVM(ctx, contract.DefaultLimits.MemoryBytes, strings.Replace(preludeSource(), marker, fake+marker, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close(ctx)
	// Node's timeout timer keeps no process alive: a timer of its own
	// does, where there is one.
	code := `const log = [];
		const keep = typeof setTimeout === "function" ? setTimeout(() => {}, 5000) : undefined;
		const s = AbortSignal.timeout(5);
		const any = AbortSignal.any([new AbortController().signal, s]);
		log.push(s.aborted, any.aborted);
		s.addEventListener("abort", (e) => log.push(["listener", e.type, e.isTrusted]));
		any.onabort = () => log.push(["any", any.reason === s.reason]);
		await new Promise((r) => s.addEventListener("abort", r));
		const r = s.reason;
		log.push(s.aborted, r.name, r.message, r.code, r instanceof DOMException, Object.prototype.toString.call(r));
		try { s.throwIfAborted(); } catch (e) { log.push(e === r); }
		if (keep !== undefined) clearTimeout(keep);
		return log;`
	res := vm.Run(ctx, contract.Request{Code: code, Limits: contract.DefaultLimits}, RunOptions{})
	if got, want := wardenOutcome(res), runInNode(t, code, ""); !equalOutcomes(got, want) {
		t.Fatalf("differs from Node:\nwarden: %s\n  node: %s", jsonText(got), jsonText(want))
	}
}

package engine

import (
	"strings"
	"testing"

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
	// The callback runs before the result's reaction, as in Node (whose
	// process dies before it prints the result).
	res = runCode(t, `queueMicrotask(() => { throw new Error("early"); }); return 5`)
	if res.OK || res.Error.Message != "early" {
		t.Fatalf("a callback queued before the return did not end the execution: %+v", res)
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
	_ = strings.Contains
}

package engine

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Timers: ordering and behaviour as Node 20's (sameAsNode), and what
// Warden adds: real waiting that costs no CPU, the timers limit, the
// deadline and cancellation while waiting, pending timers dropped when
// the result settles.

const sleepJS = "const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\n"

// TestTimersOrderAsNode: the order callbacks, microtasks and nested
// timers run in, for scripts whose order does not depend on how fast the
// machine is (delays far enough apart, or equal).
func TestTimersOrderAsNode(t *testing.T) {
	for _, code := range []string{
		// timers after the microtasks of the job that set them; a
		// callback's microtasks before the next callback
		`const log = [];
		setTimeout(() => log.push("t1"), 0);
		Promise.resolve().then(() => log.push("p1"));
		setTimeout(() => { log.push("t2"); Promise.resolve().then(() => log.push("p2")).then(() => log.push("p2b")); }, 0);
		setTimeout(() => log.push("t3"), 0);
		Promise.resolve().then(() => Promise.resolve().then(() => log.push("p1b")));
		log.push("sync");
		await sleep(30);
		return log;`,
		// nested timers run after the ones already due
		`const log = [];
		setTimeout(() => { log.push("a"); setTimeout(() => log.push("a-nested"), 0); }, 0);
		setTimeout(() => log.push("b"), 0);
		setTimeout(() => { log.push("c"); setTimeout(() => { log.push("c-nested"); setTimeout(() => log.push("c-deep"), 0); }, 0); }, 0);
		await sleep(50);
		return log;`,
		// delays and their clamping; equal delays in scheduling order
		`const log = [];
		const delays = [60, 20, 40, 1, 0, -5, NaN, "30", 2 ** 31, 2 ** 31 - 1 + 0.5, Infinity, -Infinity, 1.7, null, undefined, "x", [], {}, true, 0.5, 80];
		delays.forEach((d, i) => { if (d !== 2 ** 31 - 1 + 0.5 && d !== 2 ** 31 - 1) setTimeout(() => log.push(i), d); });
		await sleep(150);
		return log;`,
		// setInterval repeats until cleared, from inside or outside
		`const log = [];
		let n = 0;
		const i = setInterval((tag) => { log.push(tag + ++n); if (n === 3) clearInterval(i); }, 10, "i");
		let m = 0;
		const j = setInterval(() => log.push("j" + ++m), 0);
		setTimeout(() => { clearTimeout(j); log.push("stop-j"); }, 120);
		await sleep(200);
		return [log.filter((x) => x[0] === "i"), m > 3, log.indexOf("stop-j") === log.length - 1, log.filter((x) => x[0] === "i").length];`,
		// clearTimeout before firing: by the object, its number, its
		// string; garbage does nothing
		`const log = [];
		const a = setTimeout(() => log.push("a"), 5);
		const b = setTimeout(() => log.push("b"), 5);
		const c = setTimeout(() => log.push("c"), 5);
		const d = setInterval(() => log.push("d"), 5);
		const e = setTimeout(() => log.push("e"), 5);
		clearTimeout(a);
		clearTimeout(+b);
		clearTimeout(String(+c));
		clearInterval(d);
		for (const g of [undefined, null, 0, -1, "x", {}, [], () => {}, NaN, Symbol("s"), 1e9, {_onTimeout: 1}]) clearTimeout(g);
		for (const g of [undefined, null, "x", {}]) clearInterval(g);
		await sleep(30);
		return log;`,
		// refresh re-arms from now; a fired timer fires again; a cleared
		// one does not; this is the timer, extra arguments are passed
		`const log = [];
		const t = setTimeout(() => log.push("a"), 40);
		setTimeout(() => { t.refresh(); log.push("r"); }, 20);
		setTimeout(() => log.push("b"), 50);
		await sleep(120);
		const x = setTimeout(function (p, q, r, s, u) { log.push(["x", this === x, p, q, r, s, u]) }, 1, "A", "B", 3, null);
		await sleep(15);
		log.push(x.refresh() === x);
		await sleep(15);
		const c = setTimeout(() => log.push("cleared"), 1);
		clearTimeout(c);
		c.refresh();
		const d = setTimeout(() => log.push("d"), 1);
		clearTimeout(+d);
		d.refresh();
		await sleep(15);
		return log;`,
		// a callback's this: an interval clears itself, a timeout
		// refreshes itself into a repeat, clearing itself does nothing
		`const log = [];
		setInterval(function () { log.push("interval this"); clearInterval(this); }, 1);
		const u = setTimeout(() => { clearTimeout(u); log.push("cleared self"); }, 1);
		let n = 0;
		setTimeout(function () { log.push("self " + ++n); if (n < 3) this.refresh(); }, 2);
		await sleep(60);
		return log;`,
		// the Timeout object
		`const t = setTimeout(() => {}, 1);
		const i = setInterval(() => {}, 1);
		const out = [typeof t, t.constructor.name, Number.isInteger(+t), +t === +t, +t !== +i, String(+t) === ` + "`${t}`" + `,
			t.hasRef(), t.unref() === t, t.hasRef(), t.ref() === t, t.hasRef(), typeof t[Symbol.toPrimitive], typeof t.close,
			Object.getOwnPropertyNames(Object.getPrototypeOf(t)).sort(), t.close() === t,
			setTimeout.name, setTimeout.length, setInterval.name, setInterval.length, clearTimeout.name, clearTimeout.length,
			clearInterval.name, clearInterval.length,
			["setTimeout", "setInterval", "clearTimeout", "clearInterval"].map((k) => JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, k), (_, v) => typeof v === "function" ? "fn" : v))];
		clearInterval(i);
		return out;`,
		// an unref'd timer still runs while a ref'd one keeps the loop alive
		`const log = [];
		setTimeout(() => log.push("unref"), 5).unref();
		await sleep(30);
		return log;`,
		// a callback that is not a function
		`const out = [];
		for (const v of [undefined, null, 1, -0, "abc", "it's", 5n, Symbol("s"), true, {}, [], Object.create(null), "a".repeat(40), new Map(), 1.5]) {
			for (const f of [setTimeout, setInterval]) {
				try { f(v, 1); out.push("no throw"); } catch (e) { out.push([e.name, e.code, e.message, e instanceof TypeError]); }
			}
		}
		return out;`,
		// delays that are not numbers are coerced, as after *= 1
		`const log = [];
		setTimeout(() => log.push("obj"), { valueOf() { log.push("valueOf"); return 5; } });
		try { setTimeout(() => {}, { valueOf() { throw new RangeError("no") } }); } catch (e) { log.push(e.name + ": " + e.message); }
		await sleep(20);
		return log;`,
	} {
		sameAsNode(t, sleepJS+code, "")
	}
}

// TestTimersTamperAsNode: a guest that replaces the intrinsics timers
// use, or puts accessors on Object.prototype where they store, changes
// nothing: Warden's outcome with the poisoning is Node's without it
// (Node's own timers, for all their primordials, break on the accessors).
func TestTimersTamperAsNode(t *testing.T) {
	const keys = `["0", "1", "next", "prev", "list", "head", "tail", "expiry", "id", "pos", "msecs", "start", "callback", "args", "repeat", "refed", "destroyed", "object"]`
	poison := `const saved = [WeakMap.prototype.get, WeakMap.prototype.set, Array.prototype.slice, Reflect.apply, Function.prototype.apply, Function.prototype.call, Math.trunc, Math.floor, Math.max];
		WeakMap.prototype.get = () => { throw new Error("poisoned get"); };
		WeakMap.prototype.set = () => { throw new Error("poisoned set"); };
		Array.prototype.slice = () => { throw new Error("poisoned slice"); };
		Reflect.apply = Function.prototype.apply = Function.prototype.call = () => { throw new Error("poisoned apply"); };
		Math.trunc = Math.floor = Math.max = () => NaN;
		for (const k of ` + keys + `) {
			Object.defineProperty(Object.prototype, k, { set(v) { hits++; }, get() { hits++; }, configurable: true });
		}
`
	body := `await new Promise((r) => setTimeout((a, b) => { log.push(a + b); r(); }, 1, 1, 2));
		const t = setTimeout(() => log.push("cleared"), 1);
		clearTimeout(t);
		const i = setInterval(() => { log.push("interval"); clearInterval(i); }, 1);
		log.push(typeof +i);
		await new Promise((r) => setTimeout(r, 10));
`
	restore := `for (const k of ` + keys + `) delete Object.prototype[k];
		[WeakMap.prototype.get, WeakMap.prototype.set, Array.prototype.slice, Reflect.apply, Function.prototype.apply, Function.prototype.call, Math.trunc, Math.floor, Math.max] = saved;
`
	head := `const log = ["start"]; let hits = 0;
`
	tail := `return [log, hits];`
	got := wardenOutcome(runCode(t, head+poison+body+restore+tail))
	want := runInNode(t, head+body+tail, "")
	if !equalOutcomes(got, want) {
		t.Errorf("poisoned, Warden: %s; Node unpoisoned: %s", jsonText(got), jsonText(want))
	}
}

// TestTimersPatternsAsNode: what code written for Node does with timers:
// sleeps in a loop, retries with backoff, a timeout raced against work,
// a debounce.
func TestTimersPatternsAsNode(t *testing.T) {
	sameAsNode(t, sleepJS+`const log = [];
		for (let i = 0; i < 3; i++) { await sleep(2); log.push("tick " + i); }
		let attempts = 0;
		const flaky = async () => { attempts++; if (attempts < 3) throw new Error("try " + attempts); return "done after " + attempts; };
		const retry = async (fn, tries, delay) => {
			for (let i = 0; ; i++) {
				try { return await fn(); } catch (e) { log.push(e.message); if (i + 1 >= tries) throw e; await sleep(delay * 2 ** i); }
			}
		};
		log.push(await retry(flaky, 5, 1));
		const withTimeout = (p, ms) => { let t; return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => rej(new Error("timed out")), ms); })]).finally(() => clearTimeout(t)); };
		log.push(await withTimeout(sleep(1).then(() => "fast"), 50));
		try { await withTimeout(sleep(80), 5); } catch (e) { log.push(e.message); }
		const debounce = (fn, ms) => { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; };
		const d = debounce((x) => log.push("debounced " + x), 10);
		d(1); d(2); d(3);
		await sleep(40);
		const results = await Promise.all([3, 1, 2].map((n) => new Promise((r) => setTimeout(() => r(n), n * 10))));
		log.push(results);
		const order = [];
		await Promise.all([3, 1, 2].map((n) => sleep(n * 10).then(() => order.push(n))));
		log.push(order);
		return log;`, "")
}

// TestTimersWaitWithoutCPU: a 200 ms timer takes 200 ms of wall time and
// almost no CPU: the engine sleeps, it does not spin.
func TestTimersWaitWithoutCPU(t *testing.T) {
	res := run(t, contract.Request{Code: sleepJS + "const t0 = Date.now(); await sleep(200); return Date.now() - t0"}, RunOptions{})
	if !res.OK {
		t.Fatalf("got %+v", res.Error)
	}
	t.Logf("a 200 ms timer: wall %v ms, cpu %v ms", res.Stats.WallMS, res.Stats.CPUMS)
	// Time is whole milliseconds, as libuv's: a timer set 0.9 ms into a
	// millisecond may fire up to that much early, in Node as here.
	if res.Stats.WallMS < 199 {
		t.Errorf("wall %v ms for a 200 ms timer", res.Stats.WallMS)
	}
	if res.Stats.CPUMS > 40 {
		t.Errorf("cpu %v ms over a 200 ms wait: the wait spins", res.Stats.CPUMS)
	}
	// An interval of 1 ms for 100 ms: a hundred callbacks, each a job,
	// and still mostly waiting.
	res = run(t, contract.Request{Code: sleepJS + "let n = 0; const i = setInterval(() => n++, 1); await sleep(100); clearInterval(i); return n > 10"}, RunOptions{})
	check(t, res, want{value: "true"})
}

// TestTimersLimit: the timers limit counts timers pending at once; over
// it the execution ends with a ResourceError nothing can catch.
func TestTimersLimit(t *testing.T) {
	set := func(n int) string {
		return "for (let i = 0; i < " + strconv.Itoa(n) + "; i++) setTimeout(() => {}, 1000); return 'set'"
	}
	for _, c := range []struct {
		name   string
		code   string
		limits contract.Limits
		want   want
	}{
		{"1000 by default", set(1000), contract.Limits{}, want{value: `"set"`}},
		{"1001 by default", set(1001), contract.Limits{}, want{errType: contract.ResourceError, kind: contract.KindTimers}},
		{"raised", set(1001), contract.Limits{Timers: 1001}, want{value: `"set"`}},
		{"lowered", set(3), contract.Limits{Timers: 2}, want{errType: contract.ResourceError, kind: contract.KindTimers, msg: "more than 2 timers"}},
		{"intervals count", "for (let i = 0; i < 3; i++) setInterval(() => {}, 1000); return 1", contract.Limits{Timers: 2},
			want{errType: contract.ResourceError, kind: contract.KindTimers}},
		{"fired and cleared ones do not", sleepJS + "for (let i = 0; i < 5; i++) { setTimeout(() => {}, 1); clearTimeout(setTimeout(() => {}, 1)); await sleep(3); } return 'ok'",
			contract.Limits{Timers: 2}, want{value: `"ok"`}},
		{"cannot be caught", "try { for (let i = 0; i < 3; i++) setTimeout(() => {}, 1000) } catch (e) { return 'caught' } return 'done'",
			contract.Limits{Timers: 2}, want{errType: contract.ResourceError, kind: contract.KindTimers}},
		{"in a callback", sleepJS + "setTimeout(() => { try { setTimeout(() => {}, 1000); setTimeout(() => {}, 1000) } catch (e) {} }, 1); await sleep(50); return 'done'",
			contract.Limits{Timers: 2}, want{errType: contract.ResourceError, kind: contract.KindTimers}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: c.code, Limits: c.limits}, RunOptions{})
			check(t, res, c.want)
			want := c.limits.Timers
			if want == 0 {
				want = contract.DefaultLimits.Timers
			}
			if res.Limits.Timers != want {
				t.Errorf("envelope's timers limit %d, want %d", res.Limits.Timers, want)
			}
		})
	}
}

// TestTimersDroppedWhenSettled: the result is returned as soon as the
// promise settles; timers still pending never run (Node would run them
// before it exits).
func TestTimersDroppedWhenSettled(t *testing.T) {
	res := run(t, contract.Request{Code: `setTimeout(() => console.log("late"), 300);
		setInterval(() => console.log("interval"), 1);
		await new Promise((r) => setTimeout(r, 20));
		return "early"`}, RunOptions{})
	check(t, res, want{value: `"early"`})
	if res.Stats.WallMS >= 300 {
		t.Errorf("took %v ms: waited for a timer the result did not need", res.Stats.WallMS)
	}
	for _, l := range res.Logs {
		if l.Text == "late" {
			t.Errorf("a timer ran after the result settled: %+v", res.Logs)
		}
	}
}

// TestTimersDeadline: a delay past the deadline is allowed; waiting for
// it ends in TimeoutError at the deadline, without spinning.
func TestTimersDeadline(t *testing.T) {
	start := time.Now()
	res := run(t, contract.Request{Code: sleepJS + "await sleep(5000); return 1", Limits: contract.Limits{Timeout: 150 * time.Millisecond}}, RunOptions{})
	check(t, res, want{errType: contract.TimeoutError})
	if el := time.Since(start); el < 150*time.Millisecond || el > time.Second {
		t.Errorf("took %v for a 150ms deadline", el)
	}
	if res.Stats.CPUMS > 40 {
		t.Errorf("cpu %v ms while waiting for the deadline", res.Stats.CPUMS)
	}
	// A callback that loops is stopped by the same deadline.
	res = run(t, contract.Request{Code: sleepJS + "setTimeout(() => { for (;;) {} }, 1); await sleep(5000)", Limits: contract.Limits{Timeout: 100 * time.Millisecond}}, RunOptions{})
	check(t, res, want{errType: contract.TimeoutError})
}

// TestTimersAbort: the caller's context ending while the engine waits
// for a timer is an AbortError, at once.
func TestTimersAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	res := testEngine.Execute(ctx, contract.Request{Code: sleepJS + "await sleep(2000); return 1", Limits: contract.Limits{Timeout: 5 * time.Second}}, RunOptions{})
	check(t, res, want{errType: contract.AbortError})
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v to notice the cancellation", el)
	}
}

// TestTimersUncaught: a callback that throws ends the execution with its
// error, as an uncaught exception ends a Node process; only unref'd
// timers keep nothing waiting, as in Node, where the process would exit.
func TestTimersUncaught(t *testing.T) {
	res := runCode(t, sleepJS+`setTimeout(() => { throw new RangeError("boom") }, 1);
		setTimeout(() => console.log("after"), 2);
		await sleep(100); return 1`)
	check(t, res, want{errType: contract.UserCodeError, name: "RangeError", msg: "boom"})
	for _, l := range res.Logs {
		if l.Text == "after" {
			t.Errorf("a timer ran after an uncaught error: %+v", res.Logs)
		}
	}
	res = runCode(t, sleepJS+"try { setTimeout(() => { throw 'plain' }, 1); await sleep(50) } catch (e) { return 'caught' } return 1")
	check(t, res, want{errType: contract.UserCodeError, msg: "plain"})
	res = runCode(t, "await new Promise((r) => setTimeout(r, 10).unref()); return 1")
	check(t, res, want{errType: contract.UserCodeError, msg: "can never settle"})
}

package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestClassificationIgnoresWhatTheGuestSays: a thrown value that only
// says it is a resource limit (its name and message) is the guest's own
// error, even when it is an engine Error object thrown from right at the
// stack limit (where the shadow stack's peak is what a real overflow
// leaves) or names the heap limit.
func TestClassificationIgnoresWhatTheGuestSays(t *testing.T) {
	lim := contract.Limits{StackBytes: 128 << 10}
	atTheLimit := func(throw string) string {
		depth := deepestRecursion(t, lim)
		return fmt.Sprintf(recursionTo, true, throw, depth)
	}
	tests := []struct {
		name  string
		req   contract.Request
		limit bool // thrown at the stack limit: the peak must show it
	}{
		{"RangeError at the limit", contract.Request{Code: atTheLimit(`new RangeError("Maximum call stack size exceeded")`), Limits: lim}, true},
		{"SyntaxError at the limit", contract.Request{Code: atTheLimit(`new SyntaxError("stack overflow")`), Limits: lim}, true},
		{"InternalError-shaped object at the limit", contract.Request{Code: atTheLimit(`{name: "InternalError", message: "stack overflow"}`), Limits: lim}, true},
		{"RangeError-shaped object with an Error prototype", contract.Request{Code: `throw Object.assign(Object.create(RangeError.prototype), {name: "RangeError", message: "Maximum call stack size exceeded"})`}, false},
		{"RangeError, async", contract.Request{Code: `await null; throw new RangeError("Maximum call stack size exceeded")`}, false},
		{"out of memory object", contract.Request{Code: `throw {name: "InternalError", message: "out of memory"}`}, false},
		{"interrupted object", contract.Request{Code: `throw {name: "InternalError", message: "interrupted"}`}, false},
		{"output limit text", contract.Request{Code: `throw new Error("result is 5000000 bytes of JSON, over the 1048576-byte output limit")`}, false},
		{"data limit text", contract.Request{Code: `throw {name: "ResourceError", message: "data_bytes", kind: "data_bytes", type: "ResourceError"}`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.req, RunOptions{})
			check(t, res, want{errType: contract.UserCodeError})
			if res.Error.Kind != "" {
				t.Fatalf("kind %q on a UserCodeError", res.Error.Kind)
			}
			if tt.limit && res.Stats.PeakStackBytes < res.Limits.StackBytes-16<<10 {
				t.Fatalf("thrown with the stack %d bytes deep, not at the %d-byte limit", res.Stats.PeakStackBytes, res.Limits.StackBytes)
			}
		})
	}
}

// TestStackOverflowIsUncatchable: the engine's own overflow ends the
// execution where it is thrown. No catch or finally of the guest's runs,
// so the guest can neither go on, nor turn the limit into an error of its
// own, nor follow it with a forged one; the error keeps the overflow's
// stack.
func TestStackOverflowIsUncatchable(t *testing.T) {
	const overflow = "function f(){ return f() + 1 } "
	tests := []struct{ name, code string }{
		{"caught, then a value", overflow + `try { f() } catch (e) { console.log("caught"); return 1 }`},
		{"caught, then a forged overflow", overflow + `try { f() } catch (e) { console.log("caught") } throw new RangeError("Maximum call stack size exceeded")`},
		{"caught, then another error", overflow + `try { f() } catch (e) { console.log("caught"); throw new TypeError("mine") }`},
		{"finally returns", overflow + `try { f() } finally { console.log("finally"); return 1 }`},
		{"caught at every level", `function down(n) { try { return down(n + 1) } catch (e) { console.log("caught"); return down(n + 1) } } return down(0)`},
		{"caught in a promise", overflow + `try { await new Promise(() => f()) } catch (e) { console.log("caught"); return 1 }`},
		{"caught after await", overflow + `await null; try { f() } catch (e) { console.log("caught"); return 1 }`},
		{"caught by a then handler", overflow + `return await Promise.resolve().then(f).catch(() => { console.log("caught"); return 1 })`},
		{"caught in a generator's finally", overflow + `const g = (function* () { try { yield 1; f() } finally { console.log("finally") } })(); g.next(); g.next()`},
		{"regex compiler overflow caught", `try { new RegExp("(?:".repeat(100000) + ")".repeat(100000)) } catch (e) { console.log("caught"); return 1 }`},
		{"JSON.parse overflow caught", `try { JSON.parse("[".repeat(100000)) } catch (e) { console.log("caught"); return 1 }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCode(t, tt.code)
			check(t, res, want{errType: contract.ResourceError, kind: contract.KindStack})
			if len(res.Logs) != 0 {
				t.Fatalf("guest code ran after the overflow: %+v", res.Logs)
			}
			if res.Error.Stack == "" || !strings.Contains(res.Error.Message, "stack limit") {
				t.Fatalf("want the overflow's message and stack, got %+v", res.Error)
			}
		})
	}
}

// recursionTo recurses to a depth and returns (or, when the first verb is
// true, throws the second) from the deepest frame; the same text at every
// depth, so the frames are the same size.
const recursionTo = "const forge = %t; function bottom() { if (forge) throw %s; return 0 } function f(n) { return n === 0 ? bottom() : 1 + f(n - 1) } return f(%d)"

// deepestRecursion finds, by bisection over real runs, the deepest
// recursionTo that lim's stack takes without an overflow.
func deepestRecursion(t *testing.T, lim contract.Limits) int {
	t.Helper()
	lo, hi := 0, 20000
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if res := run(t, contract.Request{Code: fmt.Sprintf(recursionTo, false, "0", mid), Limits: lim}, RunOptions{}); res.OK {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 || lo == 20000 {
		t.Fatalf("no depth found for a %d-byte stack", lim.StackBytes)
	}
	return lo
}

// TestThrowListenersInTheInterpreter: the watch on the engine's throws
// is a wazero function listener, which the interpreter runs too.
func TestThrowListenersInTheInterpreter(t *testing.T) {
	ctx := context.Background()
	eng, err := New(ctx, Config{Interpreter: true})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	// A small stack: the interpreter's own limit on wasm call depth is
	// below QuickJS's default.
	res := eng.Execute(ctx, contract.Request{Code: `function f(){ return f() + 1 } try { f() } catch (e) { return 1 }`, Limits: contract.Limits{StackBytes: 64 << 10}}, RunOptions{})
	check(t, res, want{errType: contract.ResourceError, kind: contract.KindStack})
	res = eng.Execute(ctx, contract.Request{Code: `throw new RangeError("Maximum call stack size exceeded")`}, RunOptions{})
	check(t, res, want{errType: contract.UserCodeError, name: "RangeError"})
}

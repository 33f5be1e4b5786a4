package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// TestCuratedBuiltinsLookNative: sha256, console.* and host.request
// behave like ECMAScript built-in functions (Math.max is the model): not
// constructors, the right name and length, source text that is native
// code, own properties length and name only, and nothing reflective that
// leads past them to the prelude or a host function.
func TestCuratedBuiltinsLookNative(t *testing.T) {
	builtins := []struct {
		expr   string
		name   string
		length int
	}{
		{"Math.max", "max", 2}, // the model: every check holds for it
		{"sha256", "sha256", 1},
		{"console.log", "log", 0},
		{"console.info", "info", 0},
		{"console.warn", "warn", 0},
		{"console.error", "error", 0},
		{"console.debug", "debug", 0},
		{"host.request", "request", 2},
	}
	checks := []struct {
		name string
		code string // f is the builtin, N its name, L its length; returns true
	}{
		{"new throws TypeError", `try { new f("a"); return false } catch (e) { return e instanceof TypeError }`},
		{"Reflect.construct throws TypeError", `try { Reflect.construct(f, ["a"]); return false } catch (e) { return e instanceof TypeError }`},
		{"a Proxy of it is no constructor", `try { new (new Proxy(f, {}))("a"); return false } catch (e) { return e instanceof TypeError }`},
		{"a bound copy is no constructor", `try { new (f.bind(null))("a"); return false } catch (e) { return e instanceof TypeError }`},
		{"not a derived class's base", `try { class C extends f {}; return false } catch (e) { return e instanceof TypeError }`},
		{"name", `return f.name === N`},
		{"length", `return f.length === L`},
		{"source is native code", `return Function.prototype.toString.call(f) === "function " + N + "() {\n    [native code]\n}"`},
		{"bound source is native code", `return !Function.prototype.toString.call(f.bind(null)).includes("host")`},
		{"own properties are length and name", `return Reflect.ownKeys(f).join() === "length,name"`},
		{"descriptors", `const d = Object.getOwnPropertyDescriptors(f); return Object.keys(d).join() === "length,name" && !d.name.writable && !d.name.enumerable && d.name.configurable && d.length.value === L`},
		{"no prototype", `return !("prototype" in f) && f.prototype === undefined`},
		{"caller and arguments throw", `for (const k of ["caller", "arguments"]) { try { f[k]; return false } catch (e) { if (!(e instanceof TypeError)) return false } } return true`},
		{"plain function prototype", `return Object.getPrototypeOf(f) === Function.prototype`},
		{"callable through a Proxy", `return typeof new Proxy(f, {}) === "function"`},
	}
	for _, b := range builtins {
		for _, c := range checks {
			t.Run(b.expr+"/"+c.name, func(t *testing.T) {
				code := fmt.Sprintf("const f = %s, N = %q, L = %d; return (() => { %s })()", b.expr, b.name, b.length, c.code)
				check(t, runCode(t, code), want{value: "true"})
			})
		}
	}
	// They still work, bound or proxied, and a host-side check still
	// throws a TypeError the guest can catch.
	check(t, runCode(t, `return [sha256.bind(null)("abc") === sha256("abc"), new Proxy(sha256, {}).call(null, "abc") === sha256("abc")]`),
		want{value: "[true,true]"})
}

// TestStackTraceHooksAreGone: QuickJS-NG's V8-style hooks run guest code
// while the engine builds an error's stack (possibly inside a host call)
// and hand out the functions on the stack. None of them works.
func TestStackTraceHooksAreGone(t *testing.T) {
	handler := func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage("1"), nil
	}
	hook := `let calls = 0, leaked = []; Error.prepareStackTrace = (e, sites) => { calls++; for (const s of sites) leaked.push(typeof s.getFunction === "function" ? s.getFunction() : s); return "hooked" };`
	tests := []struct {
		name string
		code string
		want want
	}{
		{"prepareStackTrace never runs for new Error", hook + `const s = new Error("a").stack; return [calls, s.includes("<code>"), leaked.length]`, want{value: "[0,true,0]"}},
		{"prepareStackTrace never runs for an engine error", hook + `try { null.x } catch (e) { return [calls, e.stack.includes("<code>")] }`, want{value: "[0,true]"}},
		{"prepareStackTrace never runs in a host call", hook + `try { await import("nope") } catch (e) {} try { sha256(1) } catch (e) {} try { await host.request(1) } catch (e) {} return [calls, leaked.length]`, want{value: "[0,0]"}},
		{"captureStackTrace is gone", `return typeof Error.captureStackTrace`, want{value: `"undefined"`}},
		{"stackTraceLimit is inert", `Error.stackTraceLimit = 0; return new Error("a").stack.includes("<code>")`, want{value: "true"}},
		{"stackTraceLimit huge is inert", `Error.stackTraceLimit = 1e9; function f(n) { return n ? f(n - 1) : new Error("a").stack.split("\n").length } return f(100) < 20`, want{value: "true"}},
		{"no hook accessors on Error", `return Reflect.ownKeys(Error).filter(k => ["prepareStackTrace", "captureStackTrace", "stackTraceLimit"].includes(k))`, want{value: "[]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, run(t, contract.Request{Code: tt.code}, RunOptions{Handler: handler}), tt.want)
		})
	}
}

// The markers around the prelude's removal of the stack-trace hooks.
const (
	stackHooksBegin = "// stack-hooks:begin"
	stackHooksEnd   = "// stack-hooks:end"
)

// TestNestedHostCallIsRefused: the Go side refuses a host function
// entered while another one runs, whatever the prelude lets through. It
// runs on a VM whose prelude keeps QuickJS-NG's prepareStackTrace (the
// path the prelude closes), so that a guest hook runs sha256 while the
// module loader is throwing its error.
func TestNestedHostCallIsRefused(t *testing.T) {
	start, end := strings.Index(preludeSource(), stackHooksBegin), strings.Index(preludeSource(), stackHooksEnd)
	if start < 0 || end < start {
		t.Fatal("prelude lacks the stack-hook markers")
	}
	ctx := context.Background()
	vm, err := testEngine.newVM(ctx, contract.DefaultLimits.MemoryBytes, preludeSource()[:start]+preludeSource()[end:])
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close(ctx)
	code := `let inner = "not run"; Error.prepareStackTrace = () => { inner = sha256("x"); return "s" }; try { await import("nope") } catch (e) {} return inner`
	res := vm.Run(ctx, contract.Request{Code: code, Limits: contract.DefaultLimits}, RunOptions{})
	check(t, res, want{errType: contract.SandboxError, msg: "host function called while another one was running"})
}

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// testEngine is shared by the tests: compiling the module is the slow
// part, and every execution still gets a fresh instance.
var testEngine *Engine

// testCacheDir is testEngine's compilation cache, for tests that make an
// engine of their own.
var testCacheDir string

func TestMain(m *testing.M) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "warden-engine-cache")
	if err != nil {
		panic(err)
	}
	testCacheDir = dir
	testEngine, err = New(ctx, Config{CacheDir: dir, CloseOnContextDone: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	testEngine.Close(ctx)
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t testing.TB, req contract.Request, opts RunOptions) contract.Result {
	t.Helper()
	return testEngine.Execute(context.Background(), req, opts)
}

func runCode(t testing.TB, code string) contract.Result {
	t.Helper()
	return run(t, contract.Request{Code: code}, RunOptions{})
}

// want checks an envelope against an expected value (JSON) or error.
type want struct {
	value   string // JSON text, when ok
	errType contract.ErrorType
	kind    string
	name    string
	msg     string // substring of the message
}

func check(t *testing.T, res contract.Result, w want) {
	t.Helper()
	if w.errType == "" {
		if !res.OK {
			t.Fatalf("want ok %s, got error %+v", w.value, res.Error)
		}
		if string(res.Value) != w.value {
			t.Fatalf("value: got %s, want %s", res.Value, w.value)
		}
		return
	}
	if res.OK {
		t.Fatalf("want %s, got ok %s", w.errType, res.Value)
	}
	e := res.Error
	if e.Type != w.errType || e.Kind != w.kind || (w.name != "" && e.Name != w.name) || !strings.Contains(e.Message, w.msg) {
		t.Fatalf("want %s/%s %s %q, got %s/%s %s %q", w.errType, w.kind, w.name, w.msg, e.Type, e.Kind, e.Name, e.Message)
	}
}

func TestContract(t *testing.T) {
	tests := []struct {
		name  string
		code  string
		input string
		want  want
	}{
		{"sum", "return input.a + input.b", `{"a":1,"b":2}`, want{value: "3"}},
		{"input null when absent", "return input", "", want{value: "null"}},
		{"input string", "return input.length", `"héllo"`, want{value: "5"}},
		{"undefined becomes null", "return undefined", "", want{value: "null"}},
		{"no return becomes null", "const x = 1", "", want{value: "null"}},
		{"function becomes null", "return () => 1", "", want{value: "null"}},
		{"nested", "return {a:[1,{b:null}],s:'x'}", "", want{value: `{"a":[1,{"b":null}],"s":"x"}`}},
		{"await", "const v = await Promise.resolve(41); return v + 1", "", want{value: "42"}},
		{"promise chain", "return Promise.resolve(1).then(x => x + 1).then(x => [x])", "", want{value: "[2]"}},
		{"async generator", "async function* g(){ yield 1; yield 2 } let s = 0; for await (const v of g()) s += v; return s", "", want{value: "3"}},
		{"returned promise settles", "return new Promise(r => Promise.resolve().then(() => r('late')))", "", want{value: `"late"`}},
		{"toJSON honoured", "return {toJSON(){ return 'j' }}", "", want{value: `"j"`}},
		{"date is UTC", "return new Date(0).getHours()", "", want{value: "0"}},
		{"thrown error", "throw new TypeError('bad thing')", "", want{errType: contract.UserCodeError, name: "TypeError", msg: "bad thing"}},
		{"thrown string", "throw 'oops'", "", want{errType: contract.UserCodeError, msg: "oops"}},
		{"rejected promise", "return Promise.reject(new RangeError('r'))", "", want{errType: contract.UserCodeError, name: "RangeError", msg: "r"}},
		{"syntax error", "return (", "", want{errType: contract.UserCodeError, name: "SyntaxError"}},
		{"bigint", "return 10n", "", want{errType: contract.UserCodeError, name: "TypeError", msg: "not JSON-serializable"}},
		{"cycle", "const a = {}; a.a = a; return a", "", want{errType: contract.UserCodeError, name: "TypeError", msg: "not JSON-serializable"}},
		{"never settles", "return new Promise(() => {})", "", want{errType: contract.UserCodeError, msg: "can never settle"}},
		{"awaits forever", "await new Promise(() => {}); return 1", "", want{errType: contract.UserCodeError, msg: "can never settle"}},
		{"static import is a syntax error", "import x from 'y'; return 1", "", want{errType: contract.UserCodeError, name: "SyntaxError"}},
		{"unknown dynamic import", "return await import('fs')", "", want{errType: contract.UserCodeError, msg: "only the modules given"}},
		{"guest InternalError is gone", "throw new InternalError('out of memory')", "", want{errType: contract.UserCodeError, name: "ReferenceError"}},
		{"guest 'interrupted' is user code", "throw new Error('interrupted')", "", want{errType: contract.UserCodeError, msg: "interrupted"}},
		{"guest stack message is user code", "throw new RangeError('Maximum call stack size exceeded')", "", want{errType: contract.UserCodeError, name: "RangeError"}},
		{"guest oom message is user code", "const e = new Error('out of memory'); e.name = 'InternalError'; throw e", "", want{errType: contract.UserCodeError, name: "InternalError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Input: json.RawMessage(tt.input)}, RunOptions{})
			check(t, res, tt.want)
		})
	}
}

func TestErrorStack(t *testing.T) {
	res := runCode(t, "function inner(){ throw new Error('deep') }\nfunction outer(){ inner() }\nouter()")
	check(t, res, want{errType: contract.UserCodeError, name: "Error", msg: "deep"})
	// V8's form: the name and message, then the frames at the user's own
	// lines (TestErrorStacksAsNode compares them with Node's).
	if !strings.HasPrefix(res.Error.Stack, "Error: deep\n    at inner (<code>:1:") || !strings.Contains(res.Error.Stack, "\n    at outer (<code>:2:") {
		t.Fatalf("stack should name the frames and the user's own line numbers: %q", res.Error.Stack)
	}
}

func TestContractErrors(t *testing.T) {
	tests := []struct {
		name string
		req  contract.Request
		msg  string
	}{
		{"input not JSON", contract.Request{Code: "return 1", Input: json.RawMessage("{nope")}, "input is not valid JSON"},
		{"negative limit", contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: -1}}, "negative"},
		{"code not UTF-8", contract.Request{Code: "return '\xff'"}, "UTF-8"},
		{"NUL in a module name", contract.Request{Code: `return (await import("m\0x")).default`,
			Modules: map[string]string{"m": "export default 1", "m\x00x": "export default 2"}}, "control character U+0000"},
		{"input not UTF-8", contract.Request{Code: "return input", Input: json.RawMessage("\"\xed\xa0\x80\"")}, "not valid UTF-8"},
		{"memory below minimum", contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: 1000}}, "minimum"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.req, RunOptions{})
			check(t, res, want{errType: contract.ContractError, msg: tt.msg})
			if !errors.Is(res.Err(), contract.ErrContract) {
				t.Fatalf("errors.Is(ErrContract) false for %v", res.Err())
			}
		})
	}
}

func TestConsole(t *testing.T) {
	res := runCode(t, `console.log('a', 1, {b: 2}, [3]); console.info('i'); console.warn('w'); console.error(new TypeError('e')); console.debug(null, undefined, 5n, Symbol('s')); return 0`)
	check(t, res, want{value: "0"})
	got := fmt.Sprint(res.Logs)
	wantLogs := `[{log a 1 {"b":2} [3]} {info i} {warn w} {error TypeError: e} {debug null undefined 5 Symbol(s)}]`
	if got != wantLogs {
		t.Fatalf("logs:\n got %s\nwant %s", got, wantLogs)
	}
	if res.Stats.LogBytes == 0 {
		t.Fatal("log bytes not counted")
	}
}

func TestConsoleBounded(t *testing.T) {
	var streamed int
	res := run(t, contract.Request{Code: "for (let i = 0; i < 1000; i++) console.log('x'.repeat(100)); return 1", Limits: contract.Limits{OutputBytes: 10_000}},
		RunOptions{OnLog: func(contract.LogEntry) { streamed++ }})
	check(t, res, want{value: "1"})
	last := res.Logs[len(res.Logs)-1]
	if last.Text != logTruncatedMarker {
		t.Fatalf("want truncation marker last, got %+v", last)
	}
	if res.Stats.LogBytes > 10_000 {
		t.Fatalf("log bytes %d over the limit", res.Stats.LogBytes)
	}
	if streamed != len(res.Logs) {
		t.Fatalf("streamed %d entries, envelope has %d", streamed, len(res.Logs))
	}
}

func TestHostRequest(t *testing.T) {
	var calls []string
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		calls = append(calls, name+" "+string(args))
		switch name {
		case "double":
			var n int
			json.Unmarshal(args, &n)
			return json.RawMessage(fmt.Sprint(n * 2)), nil
		case "bad-json":
			return json.RawMessage("{nope"), nil
		default:
			return nil, errors.New("no such thing: " + name)
		}
	}
	tests := []struct {
		name string
		code string
		want want
	}{
		{"answer", "return await host.request('double', 21)", want{value: "42"}},
		{"many", "let s = 0; for (let i = 0; i < 10; i++) s += await host.request('double', i); return s", want{value: "90"}},
		{"handler error rejects", "try { await host.request('missing') } catch (e) { return e.message }", want{value: `"no such thing: missing"`}},
		{"uncaught handler error", "return await host.request('missing')", want{errType: contract.UserCodeError, msg: "no such thing"}},
		{"invalid JSON from handler", "return await host.request('bad-json')", want{errType: contract.UserCodeError, msg: "invalid JSON"}},
		{"non-string name", "return await host.request(42)", want{errType: contract.UserCodeError, name: "TypeError"}},
		{"unserializable args", "return await host.request('double', 1n)", want{errType: contract.UserCodeError, name: "TypeError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, run(t, contract.Request{Code: tt.code}, RunOptions{Handler: handler}), tt.want)
		})
	}
	res := run(t, contract.Request{Code: "await host.request('double', 1); await host.request('double', 2); return 0"}, RunOptions{Handler: handler})
	if res.Stats.DataRequests != 2 {
		t.Fatalf("data requests: got %d, want 2", res.Stats.DataRequests)
	}
	check(t, runCode(t, "return await host.request('x')"), want{errType: contract.UserCodeError, msg: "no data handler"})
}

// TestNoReentry: a guest value is never converted by running guest code
// from Go, and host calls never nest (docs/quickjs-wasm.md fact 4: either
// would crash the Go process).
func TestNoReentry(t *testing.T) {
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`"answer"`), nil
	}
	tests := []struct {
		name string
		code string
		want want
	}{
		{"sha256 toString", `return sha256({toString(){ return sha256("x") }})`, want{errType: contract.UserCodeError, name: "TypeError", msg: "must be a string"}},
		{"request name toString", `return await host.request({toString(){ return host.request("a") }})`, want{errType: contract.UserCodeError, name: "TypeError", msg: "name must be a string"}},
		{"request args getter", `return await host.request("a", {get x(){ host.request("b"); return 1 }})`, want{errType: contract.UserCodeError, name: "TypeError", msg: "being serialized"}},
		{"request args toJSON", `return await host.request("a", {toJSON(){ return host.request("b") }})`, want{errType: contract.UserCodeError, name: "TypeError", msg: "being serialized"}},
		{"log getter logs", `console.log({get x(){ console.log("inner"); return 1 }}); return 1`, want{value: "1"}},
		{"sha256 String object", `return sha256(new String("x"))`, want{errType: contract.UserCodeError, name: "TypeError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, run(t, contract.Request{Code: tt.code}, RunOptions{Handler: handler}), tt.want)
		})
	}
}

// TestGlobals enumerates everything reachable by name and compares it
// with the allow-list: ECMAScript built-ins plus console, sha256, host.
func TestGlobals(t *testing.T) {
	res := runCode(t, `
		const out = {};
		const walk = (name, obj) => {
			out[name] = Reflect.ownKeys(obj).map(String).sort();
		};
		walk("globalThis", globalThis);
		walk("console", console);
		walk("host", host);
		walk("sha256", sha256);
		walk("host.request", host.request);
		walk("Error", Error);
		return out`)
	check(t, res, want{value: string(res.Value)})
	var got map[string][]string
	if err := json.Unmarshal(res.Value, &got); err != nil {
		t.Fatal(err)
	}
	allowed := map[string][]string{
		"globalThis": {"AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "BigInt", "BigInt64Array", "BigUint64Array",
			"Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError", "FinalizationRegistry", "Float16Array", "Float32Array",
			"Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Iterator", "JSON", "Map", "Math", "NaN",
			"Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer",
			"String", "SuppressedError", "Symbol", "Symbol(Symbol.toStringTag)", "SyntaxError", "TypeError", "URIError", "Uint16Array",
			"Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet", "console", "decodeURI",
			"decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "host", "isFinite", "isNaN",
			"parseFloat", "parseInt", "sha256", "undefined", "unescape"}, // and webGlobals
		"console":      {"debug", "error", "info", "log", "warn"},
		"host":         {"request"},
		"sha256":       {"length", "name"},
		"host.request": {"length", "name"},
		"Error":        {"isError", "length", "name", "prototype"},
	}
	// The web platform's globals (child/engine/web), one per line.
	webGlobals := []string{
		"DOMException",
		"clearInterval",
		"clearTimeout",
		"setInterval",
		"setTimeout",
		"Event",
		"EventTarget",
		"AbortController",
		"AbortSignal",
		"structuredClone",
		"queueMicrotask",
		"performance",
		"crypto",
		"Crypto",
		"CryptoKey",
		"SubtleCrypto",
		"URL",
		"URLSearchParams",
		"TextEncoder",
		"TextDecoder",
		"atob",
		"btoa",
		"Buffer",
		"Intl",
	}
	allowed["globalThis"] = append(allowed["globalThis"], webGlobals...)
	for k, v := range allowed {
		slices.Sort(v)
		if !slices.Equal(got[k], v) {
			t.Errorf("%s own properties:\n got %q\nwant %q", k, got[k], v)
		}
	}
	for _, forbidden := range []string{"std", "os", "bjson", "WebAssembly", "process", "require", "fetch", "setImmediate", "InternalError"} {
		res := runCode(t, "return typeof "+forbidden)
		check(t, res, want{value: `"undefined"`})
	}
}

func TestModules(t *testing.T) {
	mods := map[string]string{
		"math":   "export const add = (a, b) => a + b; export default 7;",
		"nested": "import { add } from 'math'; export const twice = x => add(x, x);",
		"broken": "export const = ;",
	}
	tests := []struct {
		name string
		code string
		want want
	}{
		{"import", "const m = await import('math'); return m.add(2, 3) + m.default", want{value: "12"}},
		{"module imports module", "const { twice } = await import('nested'); return twice(4)", want{value: "8"}},
		{"unlisted", "return await import('other')", want{errType: contract.UserCodeError, msg: "cannot find module"}},
		{"broken module", "return await import('broken')", want{errType: contract.UserCodeError, name: "SyntaxError"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, run(t, contract.Request{Code: tt.code, Modules: mods}, RunOptions{}), tt.want)
		})
	}
}

// TestTamper: user code that replaces intrinsics, pollutes prototypes or
// freezes the realm still gets its own honest result or a typed error.
func TestTamper(t *testing.T) {
	tests := []struct {
		name string
		code string
		want want
	}{
		{"JSON.stringify replaced", `JSON.stringify = () => '"forged"'; return {a: 1}`, want{value: `{"a":1}`}},
		{"JSON.parse replaced", `JSON.parse = () => 'forged'; return input`, want{value: "null"}},
		{"Promise replaced", `globalThis.Promise = function(){ throw 'no' }; return 5`, want{value: "5"}},
		{"then replaced", `Promise.prototype.then = function(){ return 'forged' }; return 6`, want{value: "6"}},
		{"species forged", `class Fake extends Promise { constructor(ex){ super((res, rej) => ex(() => res('forged'), rej)) } }
			Promise.prototype.constructor = Fake; Object.defineProperty(Promise, Symbol.species, {value: Fake}); return 7`, want{value: "7"}},
		{"Object.prototype polluted", `Object.prototype.ok = true; Object.prototype.value = 'forged'; Object.prototype.error = 'x'; return 8`, want{value: "8"}},
		{"Reflect.apply replaced", `Reflect.apply = () => 'forged'; Function.prototype.call = null; Function.prototype.apply = null; return 9`, want{value: "9"}},
		{"toString replaced", `Function.prototype.toString = () => 'x'; return 10`, want{value: "10"}},
		{"realm frozen", `for (const k of Reflect.ownKeys(globalThis)) { const v = globalThis[k]; if (v && (typeof v === 'object' || typeof v === 'function')) { Object.freeze(v); if (v.prototype) Object.freeze(v.prototype) } } Object.freeze(globalThis); return 11`, want{value: "11"}},
		{"error describe getters", `const e = new Error('m'); Object.defineProperty(e, 'message', {get(){ throw 'boom' }}); throw e`, want{errType: contract.UserCodeError}},
		{"thrown proxy", `throw new Proxy({}, {get(){ return 'forged' }})`, want{errType: contract.UserCodeError}},
		{"sha256 replaced", `globalThis.sha256 = () => 'mine'; return sha256('x')`, want{value: `"mine"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, runCode(t, tt.code), tt.want)
		})
	}
}

// TestBreakout: the body cannot close its function and run code outside
// it; and whatever a breakout runs at compile time reaches no host.
func TestBreakout(t *testing.T) {
	var called int
	handler := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		called++
		return json.RawMessage("1"), nil
	}
	for _, code := range []string{
		"}, 1, async function(){",
		"}); host.request('leak'); (async function(){",
		"}, host.request('leak'), console.log('leak'), async function (input) {",
		"return 1 }",
		"} {",
		"})//",
		"}/*",
	} {
		t.Run(code, func(t *testing.T) {
			res := run(t, contract.Request{Code: code}, RunOptions{Handler: handler})
			check(t, res, want{errType: contract.UserCodeError, name: "SyntaxError"})
			if called != 0 || len(res.Logs) != 0 {
				t.Fatalf("breakout reached the host: %d requests, logs %v", called, res.Logs)
			}
		})
	}
}

func TestStackOverflow(t *testing.T) {
	tests := []struct{ name, code string }{
		{"recursion", "function f(n){ return f(n + 1) + 1 } return f(0)"},
		{"nested JSON.parse", "return JSON.parse('['.repeat(200000) + ']'.repeat(200000))"},
		{"recursion in toJSON", "return { toJSON(){ return JSON.stringify(this) } }"},
		{"getter recursion", "const o = { get x(){ return this.x } }; return o.x"},
		{"proxy chain", "let p = {}; for (let i = 0; i < 10000; i++) p = new Proxy(p, {}); return p.x"},
		{"nested JSON.parse in toJSON", "return { toJSON(){ return JSON.parse('['.repeat(100000)) } }"},
		{"async recursion", "async function f(){ return await f() } return await f()"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCode(t, tt.code)
			check(t, res, want{errType: contract.ResourceError, kind: contract.KindStack})
			if res.Stats.PeakStackBytes < res.Limits.StackBytes-16<<10 {
				t.Fatalf("peak stack %d, limit %d", res.Stats.PeakStackBytes, res.Limits.StackBytes)
			}
		})
	}
	// The guest cannot catch it (TestStackOverflowIsUncatchable).
	check(t, runCode(t, "function f(){ return f() } try { f() } catch (e) { return e.name }"), want{errType: contract.ResourceError, kind: contract.KindStack})
	// Regex nesting: the engine's own overflow inside the regex compiler.
	res := runCode(t, "return new RegExp('(?:'.repeat(100000) + ')'.repeat(100000)).test('x')")
	check(t, res, want{errType: contract.ResourceError, kind: contract.KindStack})
}

// TestDeepOutput: this engine's JSON.stringify is iterative (no stack
// risk) but checks for cycles along the whole path, so deep nesting costs
// quadratic time. Moderate depth works; pathological depth ends at the
// deadline as a TimeoutError, never a crash.
func TestDeepOutput(t *testing.T) {
	check(t, runCode(t, "let a = []; for (let i = 0; i < 1000; i++) a = [a]; return a"), want{value: strings.Repeat("[", 1001) + strings.Repeat("]", 1001)})
	start := time.Now()
	res := run(t, contract.Request{Code: "let a = []; for (let i = 0; i < 200000; i++) a = [a]; return a", Limits: contract.Limits{Timeout: 200 * time.Millisecond}}, RunOptions{})
	check(t, res, want{errType: contract.TimeoutError})
	if el := time.Since(start); el > 200*time.Millisecond+500*time.Millisecond {
		t.Fatalf("took %v for a 200ms deadline", el)
	}
}

func TestMemory(t *testing.T) {
	tests := []struct {
		name string
		code string
		want want
	}{
		{"string doubling", "let s = 'x'; while (true) s += s", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"string doubling flattened", "let s = 'x'; while (true) { s += s; s.indexOf('y') }", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"array growth", "const a = []; while (true) a.push({i: a.length})", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"typed array bomb", "return new Uint8Array(1e9).length", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"typed array loop", "const a = []; while (true) a.push(new Uint8Array(1e6))", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"caught oom is still oom", "try { 'x'.repeat(1e9) } catch (e) { return 'caught' }", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"regexp compiler oom caught", "const keep = []; try { for (let i = 0; ; i++) keep.push(new RegExp('(a|b)' + i + 'x'.repeat(1000))) } catch (e) { return 'caught ' + e.name }", want{errType: contract.ResourceError, kind: contract.KindMemory}},
		{"oom in a promise job", "await null; return [].concat(new Array(5e7).fill(1))", want{errType: contract.ResourceError, kind: contract.KindMemory}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Limits: contract.Limits{Timeout: 5 * time.Second}}, RunOptions{})
			check(t, res, tt.want)
			if max := int64(maxPagesFor(res.Limits.MemoryBytes)) * 65536; res.Stats.PeakMemoryBytes > max {
				t.Fatalf("linear memory %d over its cap %d", res.Stats.PeakMemoryBytes, max)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	for _, code := range []string{
		"while (true) {}",
		"for (;;) { try { while (true) {} } catch (e) {} }",
		"const o = { get x(){ while (true) {} } }; return o.x",
		"return { toJSON(){ while (true) {} } }",
		"let p = Promise.resolve(); for (;;) { await p }",
		"const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {})",
		"return /(a+)+$/.test('a'.repeat(40) + 'b')",
	} {
		t.Run(code, func(t *testing.T) {
			start := time.Now()
			res := run(t, contract.Request{Code: code, Limits: contract.Limits{Timeout: 100 * time.Millisecond}}, RunOptions{})
			check(t, res, want{errType: contract.TimeoutError})
			if el := time.Since(start); el > 100*time.Millisecond+500*time.Millisecond {
				t.Fatalf("took %v for a 100ms deadline", el)
			}
		})
	}
}

// TestSlowBuiltinNeedsCloseOnContextDone: the interrupt handler cannot
// stop a slow C builtin; with CloseOnContextDone the in-process engine
// still ends it near the deadline.
func TestSlowBuiltinNeedsCloseOnContextDone(t *testing.T) {
	code := "const a = new Array(1e6).fill(0); for (let i = 0; i < 1e6; i++) a.indexOf(1); return 1"
	start := time.Now()
	res := run(t, contract.Request{Code: code, Limits: contract.Limits{Timeout: 100 * time.Millisecond, MemoryBytes: 64 << 20}}, RunOptions{})
	check(t, res, want{errType: contract.TimeoutError})
	if el := time.Since(start); el > time.Second {
		t.Fatalf("took %v for a 100ms deadline", el)
	}
}

func TestAbort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	res := testEngine.Execute(ctx, contract.Request{Code: "while (true) {}"}, RunOptions{})
	check(t, res, want{errType: contract.AbortError})
	// A handler that blocks until its context ends is bounded by the deadline.
	block := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	start := time.Now()
	res = run(t, contract.Request{Code: "return await host.request('x')", Limits: contract.Limits{Timeout: 100 * time.Millisecond}}, RunOptions{Handler: block})
	check(t, res, want{errType: contract.TimeoutError})
	if time.Since(start) > time.Second {
		t.Fatal("blocked handler not bounded by the deadline")
	}
}

func TestVMRunsOnce(t *testing.T) {
	ctx := context.Background()
	vm, err := testEngine.NewVM(ctx, contract.DefaultLimits.MemoryBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close(ctx)
	check(t, vm.Run(ctx, contract.Request{Code: "globalThis.leak = 1; return 1", Limits: contract.DefaultLimits}, RunOptions{}), want{value: "1"})
	check(t, vm.Run(ctx, contract.Request{Code: "return 2", Limits: contract.DefaultLimits}, RunOptions{}), want{errType: contract.SandboxError, msg: "exactly one"})
	// A request needing more memory than the VM was prepared for is refused.
	vm2, err := testEngine.NewVM(ctx, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer vm2.Close(ctx)
	big := contract.DefaultLimits
	big.MemoryBytes = 32 << 20
	check(t, vm2.Run(ctx, contract.Request{Code: "return 1", Limits: big}, RunOptions{}),
		want{errType: contract.SandboxError, msg: "prepared for"})
}

func TestStats(t *testing.T) {
	res := run(t, contract.Request{Code: "console.log('x'); const a = new Array(1e5).fill(1); let s = 0; for (const v of a) s += v; await host.request('n'); return s"},
		RunOptions{Handler: func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage("1"), nil
		}})
	check(t, res, want{value: "100000"})
	s := res.Stats
	if s.WallMS <= 0 || s.CPUMS <= 0 || s.HeapBytes <= 0 || s.PeakMemoryBytes <= 0 || s.PeakStackBytes <= 0 || s.DataRequests != 1 || s.LogBytes != contract.LogEntryCost("log", "x") {
		t.Fatalf("stats incomplete: %+v", s)
	}
}

func TestMissingCacheDirIsAnError(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o600)
	if _, err := New(context.Background(), Config{CacheDir: filepath.Join(f, "sub")}); err == nil {
		t.Fatal("want an error for a cache dir below a file")
	}
}

// TestNewCompilesForItsProfileOnly: an engine made for a memory profile
// other than the default compiles the module once, for that profile, and
// a VM of that profile uses it.
func TestNewCompilesForItsProfileOnly(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Config{CacheDir: t.TempDir(), MemoryBytes: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	vm, err := e.NewVM(ctx, 32<<20)
	if err != nil {
		t.Fatal(err)
	}
	vm.Close(ctx)
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.runtimes) != 1 {
		t.Errorf("%d runtimes compiled, want 1", len(e.runtimes))
	}
}

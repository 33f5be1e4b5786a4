package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Error stacks as a user reads them (error.stack in the guest, and the
// envelope's) against Node 20's for the same code: the positions of the
// user's frames, the "Name: message" first line, no frame of Warden's.

// nodeStackRunner runs code in Node as Warden wraps it, the code on the
// wrapper's second line and the file named <code>, with lineOffset -1 so
// that Node's positions are the user's own. console.log's strings are
// collected; it prints them with the outcome's stack as JSON.
const nodeStackRunner = `"use strict";
const vm = require("vm"), fs = require("fs");
const code = fs.readFileSync(process.argv[2], "utf8");
const logs = [];
globalThis.console = { log: (...a) => logs.push(a.join(" ")) };
const out = (o) => process.stdout.write(JSON.stringify(Object.assign({ logs }, o)));
let fn;
try {
  fn = new vm.Script("(async function (input) {\n" + code + "\n})", { filename: "<code>", lineOffset: -1 }).runInThisContext();
} catch (e) {
  out({ ok: false, stack: String(e.stack) });
  return;
}
fn(null).then((v) => out({ ok: true }), (e) => out({ ok: false, stack: String(e && e.stack) }));
`

type stackOutcome struct {
	OK    bool     `json:"ok"`
	Stack string   `json:"stack"`
	Logs  []string `json:"logs"`
}

func runStackInNode(t *testing.T, code string) stackOutcome {
	t.Helper()
	node, err := nodePath()
	if err != nil {
		t.Skipf("the comparison with Node 20 does not run: %v", err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"runner.js": nodeStackRunner, "code.js": code} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The runner returns from its top level: Node runs it as CommonJS.
	cmd := exec.Command(node, filepath.Join(dir, "runner.js"), filepath.Join(dir, "code.js"))
	cmd.Env = []string{"TZ=UTC"}
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var o stackOutcome
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("node printed %q: %v", b, err)
	}
	return o
}

var (
	// V8 writes where eval'd code came from, "(eval at f (<code>:3:7),
	// <anonymous>:1:2)": the position compared is the one in the code.
	evalOrigin = regexp.MustCompile(`eval at [^,]*, `)
	// A position in the user's code, or in code it eval'd.
	userPosition = regexp.MustCompile(`(<code>|<anonymous>):(\d+):(\d+)`)
	// A syntax error's position in eval'd code (its only unnamed frame).
	evalParsePosition = regexp.MustCompile(`(?m)^    at <anonymous>:\d+:\d+\n`)
	// A stack that begins with an arrow: "FILE:LINE\n".
	arrowStart = regexp.MustCompile(`^[^\n]*:\d+\n`)
	// What none of the user's stacks may show.
	wardenFrame = regexp.MustCompile(`warden-prelude|apply \(native\)|at run \(|<input>`)
)

// positions are the user's positions in a stack's frames, in order, as
// "line:col" (or "line" when columns are not compared).
func positions(stack string, cols bool) []string {
	var out []string
	var frames []string
	for _, l := range strings.Split(stack, "\n") {
		// V8's async frames ("at async f (...)", the awaiting callers)
		// are not on the stack QuickJS unwinds.
		if !strings.HasPrefix(l, "    at async ") {
			frames = append(frames, l)
		}
	}
	stack = evalOrigin.ReplaceAllString(strings.Join(frames, "\n"), "")
	for _, m := range userPosition.FindAllStringSubmatch(stack, -1) {
		p := m[1] + ":" + m[2]
		if cols {
			p += ":" + m[3]
		}
		out = append(out, p)
	}
	return out
}

// stackCase is code whose stacks (each log, and the outcome's) are
// compared with Node's. cols says whether columns are compared too.
// QuickJS places a frame at the last part of the expression it
// evaluated that can throw (a call with a variable argument at that
// argument, `null.x` at null) where V8 places it at the call or the
// property: lines agree, columns agree where that part is the same (a
// call with literal arguments, a syntax error's token).
type stackCase struct {
	name string
	code string
	cols bool
}

var stackCases = []stackCase{
	{"throw on line 1", `throw new Error("x")`, true},
	{"throw on line 1, indented", "  \t throw new TypeError(\"x\")", true},
	{"throw on a later line", "const a = 1;\n\nif (a) {\n    throw new RangeError(\"r\")\n}", true},
	{"nested functions", "function inner() { throw new Error('deep') }\nfunction outer() { inner() }\nfunction top() {\n  return outer()\n}\ntop()", true},
	{"method", "const o = { m() { throw new Error('m') } };\no.m()", true},
	{"class constructor", "class A { constructor() { throw new Error('c') } }\nnew A()", false},
	{"after await", "await null\nawait Promise.resolve(2)\nfunction f() { throw new Error('late') }\nf()", true},
	{"async function after await", "async function f() {\n  await null\n  throw new Error('a')\n}\nawait f()", true},
	{"promise callback", "await Promise.resolve(1).then(v => {\n  throw new Error('then')\n})", true},
	{"variable argument", "const m = 'm';\n  throw new Error(m)", false},
	{"non-ASCII before the column", "const s = \"é€😀\"; throw new Error(\"x\")", true},
	{"non-ASCII on a later line", "// ü\nconst s = \"𝄞𝄞\" + \"ß\"; throw new Error('y')", true},
	{"tab before the column", "\t\tthrow new Error('t')", true},
	{"null property", "const o = null;\no.x", false},
	{"undefined call", "let f;\n  f()", false},
	{"JSON.parse", "const t = '{';\nJSON.parse(t)", false},
	{"Array.prototype.map callback", "[1, 2].map(x => {\n  throw new Error('in map')\n})", false},
	{"RangeError from a native", "new Array(-1)", true},
	{"caught and logged", "try { null.x } catch (e) { console.log(e.stack) }\ntry {\n  throw new SyntaxError('s')\n} catch (e) { console.log(e.stack) }", false},
	{"eval runtime error", "eval('1;\\nnull.x')", false},
	{"eval throw", "eval('\\n  throw new Error(\"in eval\")')", false},
	{"eval syntax error", "try { eval('1 +') } catch (e) { console.log(e.stack) }", false},
	{"new Function", "const f = new Function('a', 'return a.b.c');\nf()", false},
	{"new Function throw", "const f = new Function('throw new Error(\"fn\")');\nf()", false},
	{"JSON.parse in a function", "function p(s) { return JSON.parse(s) }\np('[1,')", false},
	{"syntax error line 1", "const x = ;", true},
	{"syntax error later line", "const a = 1;\nconst b = 2;\n  let c = a +* b;", true},
	{"syntax error first column", ")", true},
	{"syntax error last column", "const a = [1, 2;", true},
	{"syntax error after tabs", "\t\tconst s = 1; const x = ;", true},
	{"syntax error after non-ASCII", "const s = \"é€😀\"; const x = ;", true},
	{"syntax error after non-ASCII later line", "const a = 1;\n  const s = \"𝄞\" + \"ü\"; const x = );", true},
}

func TestErrorStacksAsNode(t *testing.T) {
	for _, tt := range stackCases {
		t.Run(tt.name, func(t *testing.T) {
			res := runCode(t, tt.code)
			want := runStackInNode(t, tt.code)
			if res.OK != want.OK {
				t.Fatalf("warden ok %v (%+v), node ok %v", res.OK, res.Error, want.OK)
			}
			var got []string
			for _, l := range res.Logs {
				got = append(got, l.Text)
			}
			if len(got) != len(want.Logs) {
				t.Fatalf("warden logged %q, node %q", got, want.Logs)
			}
			for i := range got {
				compareStacks(t, got[i], want.Logs[i], tt.cols)
			}
			if res.OK {
				return
			}
			compareStacks(t, res.Error.Stack, want.Stack, tt.cols)
			if res.Error.Type != contract.UserCodeError {
				t.Fatalf("type %s", res.Error.Type)
			}
			checkHeader(t, res.Error)
		})
	}
}

// compareStacks fails when the user's positions in got and want differ,
// when got has a frame of Warden's, or when got (the stack itself, past
// a syntax error's arrow) does not begin with the name Node's does.
func compareStacks(t *testing.T, got, want string, cols bool) {
	t.Helper()
	if wardenFrame.MatchString(got) {
		t.Errorf("stack shows Warden's frames:\n%s", got)
	}
	// Where in code given to eval a syntax error is, Warden shows as a
	// frame of its own, "    at <anonymous>:1:4"; V8 does not.
	g, w := positions(evalParsePosition.ReplaceAllString(got, ""), cols), positions(want, cols)
	// Node shows a syntax error's position in its arrow only
	// ("<code>:2\n<line>\n   ^"): it is the arrow that is compared.
	if ga, wa := arrowOf(got), arrowOf(want); wa != "" || ga != "" {
		g, w = []string{ga}, []string{wa}
		if !cols {
			g, w = []string{strings.SplitN(ga, "\n", 2)[0]}, []string{strings.SplitN(wa, "\n", 2)[0]}
		}
	}
	if strings.Join(g, " ") != strings.Join(w, " ") {
		t.Errorf("positions differ:\nwarden %q\n  node %q\nwarden stack:\n%s\nnode stack:\n%s", g, w, got, want)
	}
	if gn, wn := stackName(got), stackName(want); gn != wn {
		t.Errorf("stack begins with %q, Node's with %q:\n%s", gn, wn, got)
	}
}

// arrowOf is a syntax error's arrow at the top of a stack (its file and
// line, the line, and the caret), or "".
func arrowOf(stack string) string {
	if !arrowStart.MatchString(stack) {
		return ""
	}
	head, _, _ := strings.Cut(stack, "\n\n")
	return head
}

// stackName is the error's name on the stack's first line (past an arrow).
func stackName(stack string) string {
	if a := arrowOf(stack); a != "" {
		stack = strings.TrimPrefix(stack, a+"\n\n")
	}
	first, _, _ := strings.Cut(stack, "\n")
	name, _, _ := strings.Cut(first, ":")
	return name
}

// checkHeader: the envelope's stack (past an arrow) begins with the
// envelope's own "Name: message", as V8's begins with its own.
func checkHeader(t *testing.T, e *contract.Error) {
	t.Helper()
	stack := e.Stack
	if a := arrowOf(stack); a != "" {
		stack = strings.TrimPrefix(stack, a+"\n\n")
	}
	if want := e.Name + ": " + e.Message; !strings.HasPrefix(stack, want+"\n") {
		t.Errorf("stack does not begin with %q:\n%s", want, e.Stack)
	}
}

// nodeModuleRunner evaluates a module's source in Node as module "m"
// (vm.SourceTextModule), or, with "script", compiles it as a script named
// m (whose syntax errors Node shows with their arrow, as it shows none
// for a module's), and prints the outcome as JSON.
const nodeModuleRunner = `import vm from "vm";
import fs from "fs";
const src = fs.readFileSync(process.argv[2], "utf8");
try {
  if (process.argv[3] === "script") {
    new vm.Script(src, { filename: "m" });
  } else {
    const m = new vm.SourceTextModule(src, { identifier: "m" });
    await m.link(() => { throw new Error("no imports") });
    await m.evaluate();
  }
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, stack: String(e.stack) }));
}
`

func runModuleInNode(t *testing.T, src, mode string) stackOutcome {
	t.Helper()
	node, err := nodePath()
	if err != nil {
		t.Skipf("the comparison with Node 20 does not run: %v", err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"runner.mjs": nodeModuleRunner, "m.js": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, "--no-warnings", "--experimental-vm-modules", filepath.Join(dir, "runner.mjs"), filepath.Join(dir, "m.js"), mode)
	cmd.Env = []string{"TZ=UTC"}
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var o stackOutcome
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatalf("node printed %q: %v", b, err)
	}
	return o
}

var modulePosition = regexp.MustCompile(`\bm:(\d+):(\d+)`)

// TestModuleErrorsAsNode: an error in a module names it: its frames' file
// is the module's name, at Node's positions, and a syntax error has
// Node's arrow (file, line, caret) and names the module in its message.
func TestModuleErrorsAsNode(t *testing.T) {
	main := "const m = await import('m');\nreturn 1"
	throws := []stackCase{
		{"throw in the module's body", "export const x = 1;\nthrow new Error('in m')", true},
		{"throw in a function of the module", "export const x = 1;\nfunction f() {\n  throw new TypeError('f')\n}\nf()", true},
		{"non-ASCII before the column", "export const s = 'é€😀'; throw new Error('x')", true},
		{"engine error", "export const o = null;\n o.x", false},
	}
	for _, tt := range throws {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: main, Modules: map[string]string{"m": tt.code}}, RunOptions{})
			want := runModuleInNode(t, tt.code, "module")
			if res.OK || want.OK {
				t.Fatalf("want an error from both: warden %+v, node %+v", res.Error, want)
			}
			g, w := modulePositions(res.Error.Stack, tt.cols), modulePositions(want.Stack, tt.cols)
			if len(g) == 0 || strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("positions differ: warden %q, node %q\nwarden stack:\n%s\nnode stack:\n%s", g, w, res.Error.Stack, want.Stack)
			}
			if wardenFrame.MatchString(res.Error.Stack) {
				t.Errorf("stack shows Warden's frames:\n%s", res.Error.Stack)
			}
			checkHeader(t, res.Error)
		})
	}
	syntax := []stackCase{
		{"syntax error on line 1", "const y = ;", true},
		{"syntax error on a later line", "const x = 1;\n  const y = ;", true},
		{"syntax error after non-ASCII", "const x = 1;\n\tconst s = '𝄞ü'; const y = );", true},
	}
	for _, tt := range syntax {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: main, Modules: map[string]string{"m": tt.code}}, RunOptions{})
			want := runModuleInNode(t, tt.code, "script")
			if res.OK || want.OK {
				t.Fatalf("want an error from both: warden %+v, node %+v", res.Error, want)
			}
			ga, wa := arrowOf(res.Error.Stack), arrowOf(want.Stack)
			if !strings.HasPrefix(ga, "m:") || ga != wa {
				t.Errorf("arrows differ:\nwarden %q\n  node %q", ga, wa)
			}
			if !strings.Contains(res.Error.Message, `(in module "m")`) || res.Error.Name != "SyntaxError" {
				t.Errorf("message does not name the module: %+v", res.Error)
			}
			if !strings.Contains(res.Error.Stack, "\n    at m:") || wardenFrame.MatchString(res.Error.Stack) {
				t.Errorf("stack:\n%s", res.Error.Stack)
			}
		})
	}
	// The guest reads the same position, with no arrow: what it catches
	// is the engine's error, and Node's SyntaxError from an import has
	// neither. Its position is where Node's arrow points.
	src := "\n  a b"
	res := run(t, contract.Request{Code: "try { await import('m') } catch (e) { return [e.message, e.stack] }", Modules: map[string]string{"m": src}}, RunOptions{})
	var got [2]string
	if !res.OK || json.Unmarshal(res.Value, &got) != nil {
		t.Fatalf("got %+v %s", res.Error, res.Value)
	}
	arrow := strings.Split(arrowOf(runModuleInNode(t, src, "script").Stack), "\n")
	if len(arrow) != 3 {
		t.Fatalf("node's arrow: %q", arrow)
	}
	if want := fmt.Sprintf("SyntaxError: %s\n    at %s:%d", got[0], arrow[0], strings.Index(arrow[2], "^")+1); got[1] != want {
		t.Fatalf("guest's stack %q, want %q", got[1], want)
	}
}

func modulePositions(stack string, cols bool) []string {
	var out []string
	for _, m := range modulePosition.FindAllStringSubmatch(stack, -1) {
		p := m[1]
		if cols {
			p += ":" + m[2]
		}
		out = append(out, p)
	}
	return out
}

// TestStackHeaderAsNode: a stack's first line is V8's "Name: message",
// made from the name and message the error has when its stack is first
// read, for errors the code makes and errors the engine throws.
func TestStackHeaderAsNode(t *testing.T) {
	sameAsNode(t, `const first = (e) => e.stack.split("\n")[0];
		const caught = (f) => { try { f() } catch (e) { return first(e) } };
		class MyError extends Error { constructor(m) { super(m); this.name = "MyError" } }
		class Proto extends Error {}
		Proto.prototype.name = "ProtoError";
		const changed = new Error("a"); changed.message = "b";
		const read = new Error("c"); void read.stack; read.message = "d";
		const unnamed = new Error("m"); unnamed.name = "";
		const empty = new TypeError();
		const numeric = new Error("x"); numeric.name = 42;
		return [first(new MyError("m")), first(new Proto("p")), first(changed), first(read), first(unnamed), first(empty),
			first(numeric), first(new AggregateError([], "agg")), first(new RangeError("r")),
			caught(() => null.x) === "TypeError: " + caught(() => { try { null.x } catch (e) { throw new Error(e.message) } }).slice(7),
			caught(() => new Array(-1)).split(":")[0], caught(() => JSON.parse("{")).split(":")[0],
			caught(() => eval("1 +")).split(":")[0], caught(() => new Function("(")).split(":")[0],
			caught(() => undefinedName).split(":")[0], caught(() => BigInt(1.5)).split(":")[0]]`, "")
}

// TestStackFramesAsNode: at most 10 frames, as V8 shows, however many of
// them Warden's own frames would have taken; none past the code's.
func TestStackFramesAsNode(t *testing.T) {
	for _, depth := range []int{3, 8, 9, 10, 30} {
		code := fmt.Sprintf("function f(n) {\n  if (n === 0) throw new Error('d')\n  return f(n - 1)\n}\nf(%d)", depth)
		res := runCode(t, code)
		want := runStackInNode(t, code)
		if res.OK || want.OK {
			t.Fatalf("depth %d: want errors", depth)
		}
		// f(n - 1) has a variable argument: lines only.
		compareStacks(t, res.Error.Stack, want.Stack, false)
	}
}

// TestLongMessageCutAtTheStackHead: an error whose message nearly fills
// the description's budget is described whole, its message in full and
// cut at the head of the envelope's stack; e.stack in the guest is whole.
func TestLongMessageCutAtTheStackHead(t *testing.T) {
	res := run(t, contract.Request{Code: `const e = new Error("e".repeat(1000000)); if (!e.stack.startsWith("Error: " + e.message)) return "cut in the guest"; throw e`,
		Limits: contract.Limits{Timeout: 10 * time.Second, MemoryBytes: 64 << 20}}, RunOptions{})
	if res.Error == nil || res.Error.Type != contract.UserCodeError || len(res.Error.Message) != 1000000 {
		t.Fatalf("want the whole message, got %+v %.80q", res.Error, res.Value)
	}
	if !strings.HasPrefix(res.Error.Stack, "Error: eeee") || !strings.Contains(res.Error.Stack, "more characters: see message)") || len(res.Error.Stack) > 4096 {
		t.Fatalf("stack head not cut: %d bytes %.120q", len(res.Error.Stack), res.Error.Stack)
	}
}

package engine

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/typescript"
)

// The module form and TypeScript. Node 20 is the reference for what a
// module computes: runImportInNode writes the code and the request's
// modules as files and imports the code's file, so the tests name
// modules as relative paths ("./lib.mjs"), which Warden's loader takes
// as they are and Node resolves to the file.

// nodeImportRunner imports main.mjs and settles its default export as
// Warden does: called with input when it is a function, else the value.
const nodeImportRunner = `import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
try {
  const ns = await import("./main.mjs");
  const d = ns.default;
  const v = await (typeof d === "function" ? d(input) : d);
  process.stdout.write(JSON.stringify({ ok: true, value: v === undefined ? null : v }));
} catch (e) {
  process.stdout.write(JSON.stringify({ ok: false, name: String(e && e.name), message: String(e && e.message) }));
}
`

func runImportInNode(t *testing.T, code string, modules map[string]string, input string) nodeOutcome {
	t.Helper()
	node := requireNode(t)
	if input == "" {
		input = "null"
	}
	dir := t.TempDir()
	files := map[string]string{"runner.mjs": nodeImportRunner, "main.mjs": code, "input.json": input}
	for name, src := range modules {
		files[strings.TrimPrefix(name, "./")] = src
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, filepath.Join(dir, "runner.mjs"), filepath.Join(dir, "input.json"))
	cmd.Env = []string{"TZ=UTC"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var o nodeOutcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	return o
}

// TestModuleFormAsNode: modules compute in Warden what they do in Node:
// default exports of each kind, static imports (default, named,
// namespace), a cycle, top-level await on a timer.
func TestModuleFormAsNode(t *testing.T) {
	requireNode(t)
	lib := map[string]string{
		"./lib.mjs":  `export const twice = (n) => n * 2; export default "L"; export let count = 0; export function bump() { count++; }`,
		"./a.mjs":    `import { b } from "./b.mjs"; export const a = () => "a" + b(); export const name = "A";`,
		"./b.mjs":    `import { name } from "./a.mjs"; export const b = () => "b" + name;`,
		"./slow.mjs": `await new Promise((r) => setTimeout(r, 5)); export const ready = "after a timer";`,
	}
	tests := []struct{ name, code, input string }{
		{"default function of input", `export default function (input) { return { got: input }; }`, `{"a":[1,2]}`},
		{"default async arrow", `export default async (input) => input.n + 1;`, `{"n":41}`},
		{"default value", `export default [1, "two", { three: 3 }];`, ``},
		{"no default", `export const x = 1;`, ``},
		{"named and default imports", `import L, { twice } from "./lib.mjs"; export default L + twice(21);`, ``},
		{"namespace import and live binding", `import * as ns from "./lib.mjs"; ns.bump(); ns.bump(); export default [ns.count, Object.keys(ns).sort()];`, ``},
		{"cycle", `import { a } from "./a.mjs"; export default a();`, ``},
		{"top-level await in the code", `const v = await new Promise((r) => setTimeout(() => r(7), 5)); export default v * 6;`, ``},
		{"top-level await in an import", `import { ready } from "./slow.mjs"; export default ready;`, ``},
		{"throws at top level", `throw new TypeError("top");`, ``},
		{"default function throws", `export default function () { throw new RangeError("inside"); }`, ``},
		{"import.meta has nothing", `export default typeof import.meta === "object" && Object.keys(import.meta).filter((k) => k !== "url" && k !== "filename" && k !== "dirname" && k !== "resolve");`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Input: json.RawMessage(tt.input), Modules: lib}, RunOptions{})
			got, want := wardenOutcome(res), runImportInNode(t, tt.code, lib, tt.input)
			if !equalOutcomes(got, want) {
				t.Errorf("differs from Node for\n%s\nwarden: %s %+v\n  node: %s", tt.code, jsonText(got), res.Error, jsonText(want))
			}
		})
	}
}

// TestModuleFormChosen: the body stays the default; code with import or
// export declarations runs as a module without being told; an explicit
// format is held to; what is neither reports the syntax error the
// parser reached further with.
func TestModuleFormChosen(t *testing.T) {
	mods := map[string]string{"m": `export default 20;`}
	tests := []struct {
		name   string
		req    contract.Request
		w      want
		inText string // a substring of the error's stack
	}{
		{"body by default", contract.Request{Code: `return 1 + 1`}, want{value: `2`}, ""},
		{"body with a dynamic import", contract.Request{Code: `return (await import("m")).default + 1`, Modules: mods}, want{value: `21`}, ""},
		{"import found", contract.Request{Code: "import m from \"m\";\nexport default m + 2;", Modules: mods}, want{value: `22`}, ""},
		{"export found", contract.Request{Code: `export default 3;`}, want{value: `3`}, ""},
		{"explicit module", contract.Request{Code: `export default input * 2;`, Format: contract.FormatModule}, want{errType: contract.UserCodeError, name: "ReferenceError", msg: "input"}, ""},
		{"explicit body refuses export", contract.Request{Code: `export default 3;`, Format: contract.FormatBody}, want{errType: contract.UserCodeError, name: "SyntaxError"}, ""},
		{"module refuses return", contract.Request{Code: "import m from \"m\";\nreturn m", Modules: mods}, want{errType: contract.UserCodeError, name: "SyntaxError", msg: "return not in a function"}, "<code>:2:1"},
		{"body error reported when further", contract.Request{Code: "const a = 1;\nconst b = ;"}, want{errType: contract.UserCodeError, name: "SyntaxError"}, "<code>:2:"},
		{"module error reported when further", contract.Request{Code: "export const a = 1;\nexport const b = ;"}, want{errType: contract.UserCodeError, name: "SyntaxError"}, "<code>:2:"},
		{"unknown format", contract.Request{Code: `return 1`, Format: "script"}, want{errType: contract.ContractError, msg: `format "script"`}, ""},
		{"unknown language", contract.Request{Code: `return 1`, Language: "python"}, want{errType: contract.ContractError, msg: `language "python"`}, ""},
		{"the code cannot import itself", contract.Request{Code: `import x from "<code>"; export default x;`}, want{errType: contract.UserCodeError, msg: "cannot import itself"}, ""},
		{"a computed dynamic import finds nothing", contract.Request{Code: `const n = ["f", "s"].join(""); return await import(n);`}, want{errType: contract.UserCodeError, msg: `cannot find module "fs"`}, ""},
		{"a module's import outside the request", contract.Request{Code: `import m from "m"; export default m;`, Modules: map[string]string{"m": `import fs from "node:fs"; export default fs;`}}, want{errType: contract.UserCodeError, msg: `cannot find module "node:fs"`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, tt.req, RunOptions{})
			check(t, res, tt.w)
			if tt.inText != "" && !strings.Contains(res.Error.Stack, tt.inText) {
				t.Fatalf("stack %q does not hold %q", res.Error.Stack, tt.inText)
			}
		})
	}
}

// TestModuleTimersLimit: a module's top level runs under the request's
// timers limit, as a body does.
func TestModuleTimersLimit(t *testing.T) {
	req := contract.Request{Code: `for (let i = 0; i < 5; i++) setTimeout(() => {}, 1000); export default 1;`, Format: contract.FormatModule}
	req.Limits.Timers = 3
	check(t, run(t, req, RunOptions{}), want{errType: contract.ResourceError, kind: contract.KindTimers})
}

// tsInNode runs the JavaScript esbuild makes of a TypeScript body in
// Node: what Warden's engine must compute from the TypeScript.
func tsInNode(t *testing.T, code, input string) nodeOutcome {
	t.Helper()
	r, err := typescript.Body(code)
	if err != nil {
		t.Fatal(err)
	}
	return runInNode(t, r.Code, input)
}

// TestTypeScriptAsNode: TypeScript bodies and modules compute in the
// engine what their JavaScript computes in Node.
func TestTypeScriptAsNode(t *testing.T) {
	requireNode(t)
	bodies := []struct{ name, code, input string }{
		{"annotations", `const a: number = 1; return a + (input as { n: number }).n`, `{"n":2}`},
		{"enum and interface", "enum Color { Red, Green = 5 }\ninterface P { c: Color }\nconst p: P = { c: Color.Green };\nreturn [p.c, Color[5]];", ``},
		{"class with parameter properties", "class Pt { constructor(public x: number, private y = 2) {} sum(): number { return this.x + this.y; } }\nreturn new Pt(40).sum();", ``},
		{"generics and satisfies", "function first<T>(xs: T[]): T | undefined { return xs[0]; }\nconst cfg = { port: 80 } satisfies Record<string, number>;\nreturn [first<string>(['a']), cfg.port];", ``},
		{"type-only import and export are dropped", "type A = { a: 1 };\nconst v: A = { a: 1 };\nreturn v;", ``},
		{"a type error is not an error", `const n: number = "not a number" as any as number; return n;`, ``},
		{"pragmas change nothing", "/// <reference path=\"/etc/passwd\" />\n// @jsx h\n// @ts-nocheck\nreturn typeof require;", ``},
	}
	for _, tt := range bodies {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Input: json.RawMessage(tt.input), Language: contract.LanguageTypeScript}, RunOptions{})
			got, want := wardenOutcome(res), tsInNode(t, tt.code, tt.input)
			if !equalOutcomes(got, want) {
				t.Errorf("differs from Node for\n%s\nwarden: %s %+v\n  node: %s", tt.code, jsonText(got), res.Error, jsonText(want))
			}
		})
	}
	// A TypeScript module, importing a TypeScript module by its .ts name.
	mods := map[string]string{"./util.ts": "export function sum(xs: number[]): number { return xs.reduce((a, b) => a + b, 0); }\nexport enum Kind { A = 'a', B = 'b' }"}
	code := "import { sum, Kind } from './util.ts';\nexport default (input: { xs: number[] }) => [sum(input.xs), Kind.B];"
	res := run(t, contract.Request{Code: code, Input: json.RawMessage(`{"xs":[1,2,3]}`), Language: contract.LanguageTypeScript, Modules: mods}, RunOptions{})
	check(t, res, want{value: `[6,"b"]`})
}

// TestTypeScriptPositions: a throw's stack and a syntax error point at
// the TypeScript as written, in the code and in a .ts module.
func TestTypeScriptPositions(t *testing.T) {
	// Types the JavaScript loses shift every column on the throw's line.
	code := "interface Big { a: number; b: string }\nfunction f(x: Big, y: Array<Map<string, number>>): never {\n  const z: Record<string, Big> = {}; throw new Error('at ' + x.a);\n}\ntry { f({ a: 1, b: '' }, []); } catch (e) { return (e as Error).stack; }"
	res := run(t, contract.Request{Code: code, Language: contract.LanguageTypeScript}, RunOptions{})
	if !res.OK {
		t.Fatalf("%+v", res.Error)
	}
	var stack string
	json.Unmarshal(res.Value, &stack)
	js := runCode(t, "function f(x, y) {\n  const z = {}; throw new Error('at ' + x.a);\n}\ntry { f({ a: 1, b: '' }, []); } catch (e) { return e.stack; }")
	var jsStack string
	json.Unmarshal(js.Value, &jsStack)
	// The JavaScript's frame is at line 2; the TypeScript's at line 3,
	// its column past the type annotation the JavaScript does not have.
	jsCol := between(jsStack, "at f (<code>:2:", ")")
	tsCol := between(stack, "at f (<code>:3:", ")")
	if jsCol == "" || tsCol == "" {
		t.Fatalf("frames not found: TypeScript %q, JavaScript %q", stack, jsStack)
	}
	if want := strings.Index(strings.Split(code, "\n")[2], "throw") - strings.Index(strings.Split(code, "\n")[2], "const"); atoi(tsCol)-atoi(jsCol) != len("const z: Record<string, Big> = {}; ")-len("const z = {}; ") || want <= 0 {
		t.Fatalf("TypeScript column %s, JavaScript column %s: want them apart by the annotation's length\nTS: %s\nJS: %s", tsCol, jsCol, stack, jsStack)
	}
	if !strings.Contains(stack, "<code>:5:") {
		t.Fatalf("the caller's frame is not on line 5: %s", stack)
	}

	// A syntax error, with the TypeScript's line under its arrow.
	res = run(t, contract.Request{Code: "const a: number = 1;\nconst b: string = ;", Language: contract.LanguageTypeScript}, RunOptions{})
	check(t, res, want{errType: contract.UserCodeError, name: "SyntaxError"})
	if !strings.HasPrefix(res.Error.Stack, "<code>:2\nconst b: string = ;\n                  ^\n") || !strings.HasSuffix(res.Error.Stack, "at <code>:2:19") {
		t.Fatalf("stack %q", res.Error.Stack)
	}
	// In a .ts module: the import fails naming the module and position.
	res = run(t, contract.Request{Code: `import x from "bad.ts"; export default x;`, Modules: map[string]string{"bad.ts": "export default 1;\nlet q: = 2;"}}, RunOptions{})
	check(t, res, want{errType: contract.UserCodeError, msg: `in module "bad.ts"`})
	if !strings.Contains(res.Error.Message, "at 2:8") {
		t.Fatalf("message %q does not say where", res.Error.Message)
	}
	// A throw inside a .ts module maps to its TypeScript.
	res = run(t, contract.Request{Code: `import f from "m.ts"; try { f(); } catch (e) { return e.stack; }`, Format: contract.FormatBody,
		Modules: map[string]string{"m.ts": "type T = string;\nexport default function (): T { const long: Array<string> = []; throw new Error('m'); }"}}, RunOptions{})
	if res.OK {
		t.Fatalf("a body cannot import statically: %s", res.Value)
	}
	res = run(t, contract.Request{Code: `const { default: f } = await import("m.ts"); try { f(); } catch (e) { return e.stack; }`,
		Modules: map[string]string{"m.ts": "type T = string;\nexport default function (): T { const long: Array<string> = []; throw new Error('m'); }"}}, RunOptions{})
	if !res.OK {
		t.Fatalf("%+v", res.Error)
	}
	json.Unmarshal(res.Value, &stack)
	line2 := "export default function (): T { const long: Array<string> = []; throw new Error('m'); }"
	if col := between(stack, "(m.ts:2:", ")"); col == "" || atoi(col) < strings.Index(line2, "throw") {
		t.Fatalf("the module's frame is not at its TypeScript position (column of throw %d): %s", strings.Index(line2, "throw")+1, stack)
	}
}

func between(s, prefix, suffix string) string {
	_, rest, ok := strings.Cut(s, prefix)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, suffix)
	return v
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

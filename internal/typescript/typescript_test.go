package typescript

import (
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// runInNode runs a JavaScript function body in Node and answers its
// value as JSON: the transform's output must be JavaScript Node runs as
// the TypeScript means it.
func runInNode(t *testing.T, body string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("skipping: no node on PATH to run the transform's output (%v)", err)
	}
	out, err := exec.Command(node, "-e", "(async function (input) {\n"+body+"\n})(null).then((v) => console.log(JSON.stringify(v)))").CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s\n--- code:\n%s", err, out, body)
	}
	return strings.TrimSpace(string(out))
}

// TestBodyStripsTypes: each TypeScript construct the issue names comes
// out as JavaScript that Node runs to the value the TypeScript means.
func TestBodyStripsTypes(t *testing.T) {
	for _, c := range []struct{ name, ts, want string }{
		{"annotation", `const a: number = 1; return a`, `1`},
		{"enum", `enum C { A, B = 5, D } return [C.A, C.B, C.D, C[5]]`, `[0,5,6,"B"]`},
		{"string enum", `enum S { X = "x", Y = "y" } return Object.values(S)`, `["x","y"]`},
		{"parameter properties", `class P { constructor(public x: number, private readonly y: number) {} sum(): number { return this.x + this.y } } return new P(2, 3).sum()`, `5`},
		{"satisfies", `const cfg = { port: 80 } satisfies Record<string, number>; return cfg.port`, `80`},
		{"generics and as", `function first<T>(xs: T[]): T { return xs[0] } return first<string>(["a"]) as string`, `"a"`},
		{"interface and type", `interface I { a: number } type T = I & { b?: string }; const v: T = { a: 1 }; return v`, `{"a":1}`},
		{"non-null and optional", `const m = new Map<string, number>([["k", 4]]); return m.get("k")! + (m.get("z") ?? 1)`, `5`},
		{"abstract class", `abstract class A { abstract f(): number; g() { return this.f() + 1 } } class B extends A { f() { return 1 } } return new B().g()`, `2`},
		{"await", `const p: Promise<number> = Promise.resolve(7); return await p`, `7`},
		{"decorator", `function d(v: any, ctx: any) { return function (this: any) { return 42 } } class K { @d m() { return 0 } } return new K().m()`, `42`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Body(c.ts)
			if err != nil {
				t.Fatal(err)
			}
			if got := runInNode(t, r.Code); got != c.want {
				t.Errorf("got %s, want %s\n--- js:\n%s", got, c.want, r.Code)
			}
		})
	}
}

// TestNamespaceInAModule: a namespace is TypeScript's at a module's top
// level only (TS1235), so a body cannot have one; a module can.
func TestNamespaceInAModule(t *testing.T) {
	if _, err := Body("namespace N { export const k = 2 } return N.k"); err == nil {
		t.Error("a namespace in a function body was taken")
	}
	r, err := Module("namespace N { export const k = 2; export function f(x: number) { return x * k } }\nglobalThis.out = N.f(3);\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := runInNode(t, r.Code+"\nreturn globalThis.out"); got != "6" {
		t.Errorf("got %s\n--- js:\n%s", got, r.Code)
	}
}

// TestModuleKeepsImportsAndDropsTypeOnly: a module's value imports stay,
// type-only imports and exports go.
func TestModuleKeepsImportsAndDropsTypeOnly(t *testing.T) {
	r, err := Module("import type { T } from \"t\";\nimport { v } from \"m\";\nexport type U = T;\nexport default function (x: T): number { return v + x }\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Code, `from "m"`) || strings.Contains(r.Code, `"t"`) || strings.Contains(r.Code, "type") {
		t.Errorf("module output:\n%s", r.Code)
	}
}

// TestPositionsMapBack: a position in the JavaScript maps to where the
// same token stands in the TypeScript, in the body form (whose wrapper
// line is not the user's) and in a module.
func TestPositionsMapBack(t *testing.T) {
	ts := "enum E { A }\ninterface I { x: number }\nconst v: I = { x: E.A };\n  throw new TypeError(\"at \" + v.x)"
	for name, transform := range map[string]func(string) (*Result, error){"body": Body, "module": Module} {
		src := ts
		if name == "module" {
			src = strings.Replace(ts, "  throw", "export default () => { throw", 1) + " }"
		}
		r, err := transform(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wantLine, wantCol := position(src, "new TypeError")
		genLine, genCol := position(r.Code, "new TypeError")
		line, col, ok := r.Original(genLine, genCol)
		if !ok || line != wantLine || col != wantCol {
			t.Errorf("%s: %d:%d maps to %d:%d (%v), want %d:%d\n--- js:\n%s", name, genLine, genCol, line, col, ok, wantLine, wantCol, r.Code)
		}
	}
}

// position is the 1-based line and 0-based column of the first needle.
func position(s, needle string) (int, int) {
	i := strings.Index(s, needle)
	line := strings.Count(s[:i], "\n") + 1
	return line, i - (strings.LastIndexByte(s[:i], '\n') + 1)
}

// TestSyntaxErrorAtTheSource: an error's position is the user's, line 1
// of a body included (the wrapper's line is taken off).
func TestSyntaxErrorAtTheSource(t *testing.T) {
	for _, c := range []struct {
		src       string
		line, col int
	}{
		{"const x: number = ;", 1, 18},
		{"const a = 1;\nlet b: = 2", 2, 7},
		{"const é = \"😀\"; const y = ;", 1, 26},
	} {
		_, err := Body(c.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: %v, want a SyntaxError", c.src, err)
		}
		if se.Line != c.line || se.Column != c.col {
			t.Errorf("%q: at %d:%d (%s), want %d:%d", c.src, se.Line, se.Column, se.Message, c.line, c.col)
		}
	}
}

// TestPragmasAndReferencesChangeNothing: what the source says about
// options is not an option: JSX pragmas, triple-slash references and a
// source-map comment leave the transform as it is, and JSX is not
// TypeScript's syntax here.
func TestPragmasAndReferencesChangeNothing(t *testing.T) {
	for _, src := range []string{
		"/** @jsx h */\n/// <reference path=\"/etc/passwd\" />\n//# sourceMappingURL=data:application/json,{}\nreturn 1 as number",
		"// @ts-nocheck\n/* @jsxImportSource evil */\nreturn 1 as number",
	} {
		r, err := Body(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := runInNode(t, r.Code); got != "1" {
			t.Errorf("got %s", got)
		}
	}
	if _, err := Body("return <div />"); err == nil {
		t.Error("JSX was taken as TypeScript")
	}
}

// TestSourceMapDecoding: the VLQ decoder against values of known
// encodings, and refusals.
func TestSourceMapDecoding(t *testing.T) {
	got, err := decodeVLQ("AAgBC")
	if err != nil || !slicesEqual(got, []int{0, 0, 16, 1}) {
		t.Errorf("AAgBC: %v %v", got, err)
	}
	for _, bad := range []string{"!", "g", "ggggggggA"} {
		if _, err := decodeVLQ(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
	if _, err := parseSourceMap([]byte(`{"version":2}`)); err == nil {
		t.Error("a version 2 map was taken")
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDeepNestingKillsItsProcess: esbuild's parser recurses, and 1 MiB
// of nested parentheses outgrows any goroutine stack: Go's runtime ends
// the whole process (a fatal error, not a panic a recover catches).
// This is why the transform runs where a process may die for one
// execution, never in the supervisor. The test runs it in a copy of
// this test binary and checks that the copy, not this process, died.
func TestDeepNestingKillsItsProcess(t *testing.T) {
	if os.Getenv("WARDEN_TS_DEEP") == "1" {
		debug.SetMaxStack(64 << 20) // die sooner than at the 1 GB default
		const n = 512 << 10
		Body("return " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n))
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("skipping: -short (a process that overflows its stack, about a second)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeepNestingKillsItsProcess$")
	cmd.Env = append(os.Environ(), "WARDEN_TS_DEEP=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack overflow") {
		t.Fatalf("the copy did not die of a stack overflow: %v\n%.400s", err, out)
	}
}

// BenchmarkBody transforms a 3.4 KB TypeScript body (enums, classes
// with parameter properties, generics, satisfies): the warm cost an
// execution would pay, the first transform of a process aside.
func BenchmarkBody(b *testing.B) {
	var src strings.Builder
	for i := 0; src.Len() < 3400; i++ {
		src.WriteString(strings.ReplaceAll(`enum Color# { Red, Green }
interface P# { x: number; y?: string }
class A# { constructor(private readonly n: number) {} get v(): number { return this.n * 2 } }
function f#<T extends P#>(p: T): number { const a: number = p.x; return a satisfies number }
`, "#", strconv.Itoa(i)))
	}
	src.WriteString("return new A0(2).v")
	if _, err := Body(src.String()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		Body(src.String())
	}
}

package tests

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// TestTypeScriptDeepNestingDiesAlone: a 1 MiB TypeScript file nested as
// deep as it can be drives esbuild's recursive parser, in the child that
// runs the execution. Whatever esbuild does with it (a Go stack grown to
// the child's memory cap, or the runtime's fatal stack overflow), the
// execution ends in an error envelope, and the supervisor, which never
// parses TypeScript, keeps serving.
func TestTypeScriptDeepNestingDiesAlone(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.Caps = contract.Limits{CodeBytes: 1 << 20, Timeout: 20 * time.Second}
	})
	for _, shape := range []struct{ name, open, close string }{
		{"parentheses", "(", ")"},
		{"arrays", "[", "]"},
		{"generic types", "Array<", ">"},
	} {
		t.Run(shape.name, func(t *testing.T) {
			depth := (1<<20 - 64) / (len(shape.open) + len(shape.close))
			code := "const x: any = " + strings.Repeat(shape.open, depth) + "1" + strings.Repeat(shape.close, depth) + ";\nreturn 1"
			if shape.name == "generic types" {
				code = "let x: " + strings.Repeat(shape.open, depth) + "number" + strings.Repeat(shape.close, depth) + ";\nreturn 1"
			}
			req := contract.Request{Code: code, Language: contract.LanguageTypeScript,
				Limits: contract.Limits{CodeBytes: 1 << 20, Timeout: 20 * time.Second}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := time.Now()
			res, err := s.Execute(ctx, req, nil)
			if err != nil && res.Error == nil {
				t.Fatalf("no envelope: %v", err)
			}
			if res.OK {
				t.Logf("%s: esbuild parsed %d levels (%v): %s", shape.name, depth, time.Since(start), res.Value)
			} else {
				t.Logf("%s: %d levels: %s (%v)", shape.name, depth, res.Error, time.Since(start))
				switch res.Error.Type {
				case contract.ResourceError, contract.SandboxError, contract.UserCodeError:
				default:
					t.Fatalf("want the execution's own failure (its child's memory cap, its death, or a syntax error), got %s", res.Error)
				}
			}
			requireServing(t, s)
		})
	}
}

// TestTypeScriptInAChild: TypeScript runs in a real child under every
// layer (its seccomp filter answers esbuild's terminal check), in both
// forms, with a .ts module.
func TestTypeScriptInAChild(t *testing.T) {
	s := newSupervisor(t, nil)
	res, err := s.Execute(context.Background(), contract.Request{
		Code:     "import { twice } from './lib.ts';\nexport default (input: { n: number }): number => twice(input.n);",
		Input:    []byte(`{"n":21}`),
		Language: contract.LanguageTypeScript,
		Modules:  map[string]string{"./lib.ts": "export const twice = (n: number): number => n * 2;"},
	}, nil)
	if err != nil || !res.OK || string(res.Value) != "42" {
		t.Fatalf("got %s, %+v, %v", res.Value, res.Error, err)
	}
	// TypeScript is served by a profile of its own, whose children warm
	// esbuild during start-up; JavaScript's children never do.
	st := s.Stats()
	var tsProfile bool
	for _, p := range st.Pool.ByProfile {
		tsProfile = tsProfile || p.TypeScript
	}
	var warmed bool
	for _, ph := range st.Startup {
		warmed = warmed || strings.HasPrefix(ph.Name, "TypeScript: esbuild warmed")
	}
	if !tsProfile || !warmed {
		t.Fatalf("no TypeScript profile (%v) or no warm-up phase (%v) in %+v", tsProfile, warmed, st)
	}
	res, _ = s.Execute(context.Background(), contract.Request{Code: "const a: number = ;", Language: contract.LanguageTypeScript}, nil)
	if res.OK || res.Error.Name != "SyntaxError" || !strings.Contains(res.Error.Stack, "<code>:1:19") {
		t.Fatalf("a TypeScript syntax error: %+v", res.Error)
	}
}

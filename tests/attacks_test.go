// Package tests holds Warden's end-to-end, escape, resource, fault and
// load tests. Each attack script in testdata/ says on its first lines what
// it must end in ("// expect: TYPE[/kind]" or "// expect: ok", and
// optionally "// value: JSON"), and every runner Warden has is attacked
// with all of them.
package tests

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
)

// attack is one script from testdata/ and what it must end in.
type attack struct {
	name    string
	code    string
	errType contract.ErrorType // "" means ok
	kind    string
	value   string
	timeout time.Duration
}

func loadAttacks(t *testing.T) []attack {
	t.Helper()
	files, err := filepath.Glob("testdata/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no attack scripts in testdata/: %v", err)
	}
	var out []attack
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a := attack{name: strings.TrimSuffix(filepath.Base(f), ".js"), code: string(b), timeout: attackTimeout}
		expectOK := false
		for _, line := range strings.Split(a.code, "\n") {
			if v, ok := strings.CutPrefix(line, "// expect: "); ok {
				expectOK = v == "ok"
				if v != "ok" {
					typ, kind, _ := strings.Cut(v, "/")
					a.errType, a.kind = contract.ErrorType(typ), kind
				}
			}
			if v, ok := strings.CutPrefix(line, "// value: "); ok {
				a.value = v
			}
			if v, ok := strings.CutPrefix(line, "// timeout: "); ok {
				if a.timeout, err = time.ParseDuration(v); err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
		}
		if a.errType == "" && a.value == "" && !expectOK {
			t.Fatalf("%s: no '// expect:' line", f)
		}
		out = append(out, a)
	}
	return out
}

// attackTimeout is the deadline an attack runs under unless its script
// says "// timeout: D" (resource bombs need time to reach their limit), and
// attackMargin how far past it an attack may end: the interrupt fires
// within a few ms, but a loaded 2-core CI machine needs slack.
const (
	attackTimeout = 500 * time.Millisecond
	attackMargin  = 1500 * time.Millisecond
)

type runner func(ctx context.Context, req contract.Request) contract.Result

func runAttacks(t *testing.T, run runner) {
	for _, a := range loadAttacks(t) {
		t.Run(a.name, func(t *testing.T) {
			start := time.Now()
			res := run(context.Background(), contract.Request{Code: a.code, Limits: contract.Limits{Timeout: a.timeout}})
			elapsed := time.Since(start)
			if elapsed > a.timeout+attackMargin {
				t.Errorf("ended after %v: over the %v deadline plus %v margin", elapsed, a.timeout, attackMargin)
			}
			if a.errType == "" {
				if !res.OK {
					t.Fatalf("want ok, got %+v", res.Error)
				}
				if a.value != "" && string(res.Value) != a.value {
					t.Fatalf("value %s, want %s", res.Value, a.value)
				}
				return
			}
			if res.OK {
				t.Fatalf("want %s/%s, got ok %.200s", a.errType, a.kind, res.Value)
			}
			if res.Error.Type != a.errType || res.Error.Kind != a.kind {
				t.Fatalf("want %s/%s, got %s/%s: %s", a.errType, a.kind, res.Error.Type, res.Error.Kind, res.Error.Message)
			}
		})
	}
}

// TestAttacksInProcess attacks the engine alone, as an embedder running
// it in-process would: with CloseOnContextDone on, since nothing above it
// can kill a slow builtin.
func TestAttacksInProcess(t *testing.T) {
	eng := newEngine(t)
	runAttacks(t, func(ctx context.Context, req contract.Request) contract.Result {
		return eng.Execute(ctx, req, engine.RunOptions{})
	})
}

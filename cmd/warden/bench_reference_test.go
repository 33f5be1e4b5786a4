package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The reference's node program runs the script as Warden does: a
// function body over input, with console, and a host.request that has
// no data handler; a throw fails the process.
func TestNodeScriptIsTheExecution(t *testing.T) {
	testutil.RequireCmd(t, "node")
	tests := []struct {
		name, code, input string
		expected          string // stdout, or the stderr text a failure has
		fails             bool
	}{
		{"value", "return input.a + input.b", `{"a":1,"b":2}`, "3", false},
		{"await and console", "console.log('hi'); await null; return [input]", `"x"`, "hi\n[\"x\"]", false},
		{"undefined is null", "return", `null`, "null", false},
		{"throw", "throw new TypeError('boom')", `null`, "TypeError: boom", true},
		{"no data handler", "return await host.request('x')", `null`, contract.ErrNoDataHandler.Error(), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("node", "-e", nodeScript(tc.code, tc.input))
			cmd.Env = []string{}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if (err != nil) != tc.fails {
				t.Fatalf("error %v (stderr %q), want failure %t", err, stderr.String(), tc.fails)
			}
			got := string(out)
			if tc.fails {
				got = stderr.String()
			}
			if !strings.Contains(got, tc.expected) {
				t.Fatalf("got %q, want %q", got, tc.expected)
			}
		})
	}
}

// `warden bench` reports the reference beside its own figures, in JSON
// and in text, and says why when there is none.
func TestBenchReference(t *testing.T) {
	testutil.RequireCmd(t, "node")
	args := []string{"bench", "-n", "4", "-c", "2", "--no-in-process", "-cache-dir", cacheDir}
	code, out, stderr := runCLI(t, "", append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep benchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Reference == nil || rep.Reference.Failures != 0 || rep.Reference.Throughput <= 0 || rep.ReferenceRatio <= 0 {
		t.Fatalf("reference %+v, ratio %v, note %q", rep.Reference, rep.ReferenceRatio, rep.ReferenceNote)
	}
	if !strings.Contains(out, `"throughput_vs_reference"`) {
		t.Fatalf("no throughput_vs_reference in %s", out)
	}

	code, out, stderr = runCLI(t, "", append(args, "--no-reference")...)
	if code != exitOK || !strings.Contains(out, "no reference: --no-reference") || !strings.Contains(out, "child process") {
		t.Fatalf("exit %d: %s\n%s", code, out, stderr)
	}

	t.Setenv("PATH", t.TempDir())
	var rep2 benchReport
	benchReference(context.Background(), benchOptions{n: 1, conc: 1, code: "return 1", input: "null"}, &rep2)
	if rep2.Reference != nil || rep2.ReferenceNote != "no reference: node not found" {
		t.Fatalf("without node on PATH: %+v %q", rep2.Reference, rep2.ReferenceNote)
	}
}

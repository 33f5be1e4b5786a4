package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the compilation cache the example is given, made by TestMain.
var cacheDir string

// TestEmbedExample builds the example with `go build`, as a user would,
// runs it, and checks the envelope it prints: the script ran in a child
// of the example's own binary and got its data from the example's
// handler.
func TestEmbedExample(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds and runs a program (-short)")
	}
	testutil.RequireCmd(t, "go")
	bin := filepath.Join(t.TempDir(), "embed")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "-cache-dir", cacheDir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\nstdout: %s\nstderr: %s", err, stdout.Bytes(), stderr.Bytes())
	}
	var res contract.Result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not an envelope: %v\n%s", err, stdout.Bytes())
	}
	if !res.OK || string(res.Value) != `["hello, ada","hello, grace"]` {
		t.Fatalf("want the greetings, got %s (error %+v)", stdout.Bytes(), res.Error)
	}
	if len(res.Logs) != 1 || res.Logs[0].Text != "got 2 users" {
		t.Errorf("want one log line, got %+v", res.Logs)
	}
	if res.Stats.DataRequests != 1 {
		t.Errorf("want one data request answered by the handler, got %d", res.Stats.DataRequests)
	}
	if res.Stats.ChildPID == 0 || res.Stats.ChildPID == cmd.Process.Pid {
		t.Errorf("the script did not run in a child of its own: child pid %d, example pid %d", res.Stats.ChildPID, cmd.Process.Pid)
	}
}

// TestReadmeSnippet: the README's embedding snippet is this example's
// code, with "..." where lines are left out: every other line of the
// snippet appears in main.go, in the same order.
func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## Embedding\n")
	if !ok {
		t.Fatal("README has no Embedding section")
	}
	_, snippet, ok := strings.Cut(section, "```go\n")
	if !ok {
		t.Fatal("README's Embedding section has no Go snippet")
	}
	snippet, _, _ = strings.Cut(snippet, "```")
	lines := strings.Split(string(src), "\n")
	i := 0
	for _, want := range strings.Split(strings.TrimSpace(snippet), "\n") {
		if strings.TrimSpace(want) == "..." {
			continue
		}
		for i < len(lines) && lines[i] != want {
			i++
		}
		if i == len(lines) {
			t.Fatalf("README's snippet line %q is not in main.go (in order)", want)
		}
		i++
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/internal/stress"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestStressFlagErrors: every flag value `warden stress` cannot use is a
// typed error, and so is a corpus that is missing or malformed.
func TestStressFlagErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--mix", "attacks=30%,benign=60%"},
		{"--mix", "evil=10%"},
		{"--mix", "attacks=lots"},
		{"--faults", "kill-child,meteor"},
		{"--faults", "oom", "--fault-rate", "0"},
		{"-n", "10", "--duration", "1s"},
		{"-c", "0"},
		{"extra"},
		{"--token", "t"},
		{"--token-file", "t"},
	} {
		_, err := parseStressFlags(args, io.Discard)
		var fe *stressFlagError
		if !errors.As(err, &fe) {
			t.Errorf("%q: %v, want a *stressFlagError", args, err)
		}
	}
	if _, err := parseStressFlags([]string{"--corpus", filepath.Join(t.TempDir(), "missing")}, io.Discard); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing corpus: %v, want fs.ErrNotExist", err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "escape"), 0o755)
	os.WriteFile(filepath.Join(dir, "escape", "x.js"), []byte("return 1\n"), 0o644)
	var he *attacks.HeaderError
	if _, err := parseStressFlags([]string{"--corpus", dir}, io.Discard); !errors.As(err, &he) {
		t.Errorf("corpus without headers: %v, want *attacks.HeaderError", err)
	}
	o, err := parseStressFlags([]string{"--mix", "benign=80%", "--faults", "all"}, io.Discard)
	if err != nil || o.cfg.AttackShare < 0.19 || o.cfg.AttackShare > 0.21 || len(o.cfg.Faults) == 0 || len(o.cfg.Scripts) < 150 {
		t.Errorf("good flags: %v, %+v", err, o.cfg)
	}
}

// startStressDaemon starts `warden serve` in a helper process (so that
// its children are not the stress process's descendants, as with a real
// daemon) with one tenant allowed every module, and returns it with a
// file holding the tenant's token.
func startStressDaemon(t *testing.T) (*daemonProc, string) {
	t.Helper()
	const token = "stress-test-token"
	dir := t.TempDir()
	cfg := filepath.Join(dir, "serve.yaml")
	os.WriteFile(cfg, []byte("tenants:\n  - name: acme\n    token_sha256: \""+testutil.TokenSHA256(token)+"\"\n    modules: [\"*\"]\n"), 0o600)
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	return startServe(t, nil, nil, nil, "--listen", "127.0.0.1:0", "--config", cfg), tokenFile
}

// runStressProc runs `warden stress ARGS` in a helper process (its audit
// is of its own descendants: none of the test's) and returns its exit
// code, stdout and stderr.
func runStressProc(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	// Its own TMPDIR, removed with the test: the helper's TestMain
	// makes a directory there that its os.Exit leaves.
	env := append(os.Environ(), serveHelperEnv+"=1", "TMPDIR="+t.TempDir())
	cmd := testutil.HelperCmd(env, append([]string{"stress"}, args...)...)
	cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("warden stress: %v", err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// remoteSubset writes the corpus scripts that talk to the host (data
// requests, answered by this process over the event stream, and
// modules) and every tenth other script to a directory, for a bounded
// run through a daemon.
func remoteSubset(t *testing.T) (dir string, n int) {
	t.Helper()
	dir = t.TempDir()
	root := "../../internal/attacks/corpus"
	i := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		i++
		if !strings.Contains(string(b), "host.request") && !strings.Contains(string(b), "import") && i%10 != 0 {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
		n++
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir, n
}

// TestStressServer: `warden stress --server` runs corpus scripts with
// their local expectations through a real daemon (real supervisor and
// children) over its HTTP API, the data-request scripts answered by the
// corpus's handler over the event stream, with the two faults that apply
// remotely (slow-handler: the client must not wait for a handler that
// ignores its ctx); the report passes and the audit finds nothing left,
// here or in the daemon.
func TestStressServer(t *testing.T) {
	d, tokenFile := startStressDaemon(t)
	corpus, n := remoteSubset(t)
	code, out, errOut := runStressProc(t, "--server", d.url, "--token-file", tokenFile, "--corpus", corpus,
		"--mix", "attacks=60%,benign=40%", "-c", "2", "--baseline", "20", "--faults", "all", "--fault-rate", "10%", "--seed", "3", "--json")
	var rep stress.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("exit %d, not a JSON report: %v\nstderr: %s\n%.2000s", code, err, errOut, out)
	}
	if code != exitOK || !rep.OK || rep.Failures != 0 || len(rep.Leaks) != 0 || !rep.Server {
		var text bytes.Buffer
		rep.WriteText(&text)
		t.Fatalf("exit %d:\n%s\nstderr: %s", code, text.String(), errOut)
	}
	ran := map[string]int{}
	for _, s := range rep.Scripts {
		ran[s.Category] += s.Passed + s.Failed
		if s.Name == "fault/slow-handler" || s.Name == "fault/fail-handler" {
			ran[s.Name] += s.Passed
		}
	}
	if ran["resource"] == 0 || ran["leak"] == 0 || ran["fault/slow-handler"] == 0 || ran["fault/fail-handler"] == 0 {
		t.Errorf("want resource and leak scripts and both remote faults run, got %v", ran)
	}
	if rep.DaemonBefore == nil || rep.DaemonAfter == nil || rep.DaemonAfter["busy"] != 0 {
		t.Errorf("the daemon's children: before %v, after %v", rep.DaemonBefore, rep.DaemonAfter)
	}
	t.Logf("%d scripts, %d executions, %.1f/s", n, rep.Executions, rep.Rate)
}

// TestStressServerRefusals: a token the daemon refuses, and a fault that
// cannot be injected through the API, end `warden stress --server` with
// exit 2 and a message naming the cause, before any execution.
func TestStressServerRefusals(t *testing.T) {
	d, tokenFile := startStressDaemon(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--token", "wrong"}, "refused the token"},
		{[]string{"--token-file", tokenFile, "--faults", "slow-handler,oom"}, `fault "oom" cannot be injected`},
	} {
		code, out, errOut := runStressProc(t, append([]string{"--server", d.url, "-n", "5"}, c.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	resp, err := http.Get(d.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(b), "warden_executions_total{") {
		t.Errorf("the daemon ran executions:\n%s", grepLines(string(b), "warden_executions_total"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Package differential runs realistic scripts, of the kind models write
// as tool calls and users write in workflow nodes, in Warden (a real
// supervisor with real child processes) and in Node 20, and fails on a
// difference that known.txt does not list with its reason. README.md in
// this directory says how to add a script and how to read a failure.
package differential

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// SkipNodeEnv, set to 1, skips the suite when node is not installed;
// without it a missing node fails the test (CI must have Node 20).
const SkipNodeEnv = "WARDEN_DIFF_SKIP_NODE"

// The test binary is also the child: the supervisor re-executes it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the compilation cache the supervisor shares, made by TestMain.
var cacheDir string

const (
	// scriptTimeout is each execution's deadline on both sides: far above
	// what any script needs (its sleeps are tens of ms), so that a loaded
	// machine does not make a difference.
	scriptTimeout = 10 * time.Second
	// nodeWorkers and wardenWorkers bound the executions at once; the
	// two sides run at the same time.
	nodeWorkers   = 2
	wardenWorkers = 3
)

// script is one scripts/NAME.js with its optional NAME.input.json and
// NAME.data.json (the answers host.request gives, by request name).
type script struct {
	name, code string
	input      json.RawMessage
	data       map[string]json.RawMessage
	// inputFile and dataFile are the files' paths, "" when there is none.
	inputFile, dataFile string
}

func loadScripts(t *testing.T) []script {
	t.Helper()
	files, err := filepath.Glob("scripts/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in scripts/: %v", err)
	}
	var out []script
	names := map[string]bool{}
	for _, f := range files {
		s := script{name: strings.TrimSuffix(filepath.Base(f), ".js"), input: json.RawMessage("null"), data: map[string]json.RawMessage{}}
		names[s.name] = true
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s.code = string(b)
		base := strings.TrimSuffix(f, ".js")
		if b, err := os.ReadFile(base + ".input.json"); err == nil {
			if !json.Valid(b) {
				t.Fatalf("%s.input.json is not JSON", base)
			}
			s.input, s.inputFile = b, base+".input.json"
		}
		if b, err := os.ReadFile(base + ".data.json"); err == nil {
			if err := json.Unmarshal(b, &s.data); err != nil {
				t.Fatalf("%s.data.json: want a JSON object from request name to answer: %v", base, err)
			}
			s.dataFile = base + ".data.json"
		}
		out = append(out, s)
	}
	// A JSON file that belongs to no script is a misspelt name.
	extra, _ := filepath.Glob("scripts/*.json")
	for _, f := range extra {
		name, ok := strings.CutSuffix(filepath.Base(f), ".input.json")
		if !ok {
			name, ok = strings.CutSuffix(filepath.Base(f), ".data.json")
		}
		if !ok || !names[name] {
			t.Errorf("%s: not NAME.input.json or NAME.data.json of a script", f)
		}
	}
	return out
}

// loadKnown reads known.txt: "NAME: reason" per line; blank lines and
// lines starting with # are ignored.
func loadKnown(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("known.txt")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, ":")
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		if !ok || name == "" || reason == "" {
			t.Fatalf("known.txt:%d: want \"NAME: reason\", got %q", i+1, line)
		}
		if _, dup := known[name]; dup {
			t.Fatalf("known.txt:%d: %s is listed twice", i+1, name)
		}
		known[name] = reason
	}
	return known
}

// TestDifferential runs every script in Warden and in Node and compares
// the outcomes.
func TestDifferential(t *testing.T) {
	node := requireNode20(t)
	scripts := loadScripts(t)
	known := loadKnown(t)
	s := newSupervisor(t)
	runner, err := filepath.Abs("runner.js")
	if err != nil {
		t.Fatal(err)
	}
	// What Node reads for a script without an input or a data file.
	dir := t.TempDir()
	for name, text := range map[string]string{"null.json": "null", "empty.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	wg.Add(2)
	wardenOut := make([]outcome, len(scripts))
	nodeOut := make([]outcome, len(scripts))
	var wardenTook, nodeTook time.Duration
	go func() {
		defer wg.Done()
		each(len(scripts), wardenWorkers, func(i int) { wardenOut[i] = runWarden(s, scripts[i]) })
		wardenTook = time.Since(start)
	}()
	go func() {
		defer wg.Done()
		each(len(scripts), nodeWorkers, func(i int) { nodeOut[i] = runNode(node, runner, dir, scripts[i]) })
		nodeTook = time.Since(start)
	}()
	wg.Wait()
	same, differ, unlisted := report(t, scripts, known, wardenOut, nodeOut)
	listed := "all listed"
	if unlisted > 0 {
		listed = fmt.Sprintf("%d not listed in known.txt", unlisted)
	}
	t.Logf("%d scripts, %d same, %d differ (%s); Warden took %v, Node %v",
		len(scripts), same, differ, listed, wardenTook.Round(time.Millisecond), nodeTook.Round(time.Millisecond))
}

// requireNode20 returns node's path. Without node, or with a node that
// is not Node 20 (the reference: another version answers differently,
// Node 18 has no Array.prototype.toSorted), the test fails, or skips
// when SkipNodeEnv is 1.
func requireNode20(t *testing.T) string {
	t.Helper()
	fail := t.Fatalf
	if os.Getenv(SkipNodeEnv) == "1" {
		fail = t.Skipf
	}
	if testing.Short() {
		t.Skip("-short: the differential suite runs in the full pass of make test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		fail("node is not installed (%v): the differential suite compares Warden with Node 20; install it, or set %s=1 to skip the suite", err, SkipNodeEnv)
		return ""
	}
	out, err := exec.Command(node, "--version").Output()
	if v := strings.TrimSpace(string(out)); err != nil || !strings.HasPrefix(v, "v20.") {
		fail("%s --version says %q (%v): the differential suite compares Warden with Node 20; install it, or set %s=1 to skip the suite", node, v, err, SkipNodeEnv)
	}
	return node
}

// report fails the test on every difference known.txt does not list, on
// every listed script that no longer differs and on every listed name
// that is no script; it returns how many were the same, how many
// differed and how many of those known.txt does not list.
func report(t reporter, scripts []script, known map[string]string, warden, node []outcome) (same, differ, unlisted int) {
	seen := map[string]bool{}
	for i, s := range scripts {
		seen[s.name] = true
		reason, listed := known[s.name]
		if node[i].setupErr != "" {
			t.Errorf("%s: node did not run the script: %s", s.name, node[i].setupErr)
			continue
		}
		if sameOutcome(warden[i], node[i]) {
			same++
			if listed {
				t.Errorf("%s: listed in known.txt (%s) but Warden and Node now agree: remove the line\n  both: %s", s.name, reason, node[i])
			}
			continue
		}
		differ++
		if listed {
			t.Logf("%s: differs, as known.txt says (%s)\n  warden: %s\n    node: %s", s.name, reason, warden[i], node[i])
			continue
		}
		unlisted++
		t.Errorf("%s: Warden and Node differ (fix Warden, or list it in known.txt with the reason)\n  warden: %s\n    node: %s", s.name, warden[i], node[i])
	}
	var stale []string
	for name := range known {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	slices.Sort(stale)
	for _, name := range stale {
		t.Errorf("known.txt lists %s, which is no script in scripts/", name)
	}
	return same, differ, unlisted
}

// reporter is the part of testing.T that report uses (a recorder in
// TestReportFailsWhereItShould).
type reporter interface {
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// each calls f(0..n-1) from at most workers goroutines and waits.
func each(n, workers int, f func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// newSupervisor is a real supervisor on the shared cache, closed when
// the test ends.
func newSupervisor(t *testing.T) *supervisor.Supervisor {
	t.Helper()
	cfg := supervisor.Config{CacheDir: cacheDir, PoolSize: 2, QueueTimeout: max(testutil.Timeout(), 30*time.Second), StartTimeout: testutil.Timeout()}
	s, err := supervisor.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	testutil.CloseAtEnd(t, s)
	return s
}

// runWarden runs the script in a child of s, host.request answered from
// its data file (as `warden run --data` answers).
func runWarden(s *supervisor.Supervisor, sc script) outcome {
	handler := func(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
		v, ok := sc.data[name]
		if !ok {
			return nil, fmt.Errorf("no data named %q", name)
		}
		return v, nil
	}
	req := contract.Request{ID: sc.name, Code: sc.code, Input: sc.input, Limits: contract.Limits{Timeout: scriptTimeout}}
	res, err := s.Execute(context.Background(), req, handler)
	if res.OK {
		return outcome{OK: true, Value: res.Value}
	}
	if res.Error == nil {
		return outcome{Name: "(no envelope error)", Message: fmt.Sprint(err)}
	}
	o := outcome{Name: res.Error.Name, Message: res.Error.Message}
	if res.Error.Type != contract.UserCodeError {
		// Not the script's own error: a limit, or Warden failing.
		o.Name = fmt.Sprintf("%s(%s/%s)", o.Name, res.Error.Type, res.Error.Kind)
	}
	return o
}

// runNode runs the script with runner.js in an empty environment but
// for TZ=UTC (Warden's guest runs in UTC).
func runNode(node, runner, dir string, sc script) outcome {
	input, data := filepath.Join(dir, "null.json"), filepath.Join(dir, "empty.json")
	if sc.inputFile != "" {
		input = sc.inputFile
	}
	if sc.dataFile != "" {
		data = sc.dataFile
	}
	code := filepath.Join("scripts", sc.name+".js")
	ctx, cancel := context.WithTimeout(context.Background(), 2*scriptTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, runner, code, input, data)
	cmd.Env = []string{"TZ=UTC"}
	// The files are relative to the package directory, the test's own.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return outcome{setupErr: fmt.Sprintf("%v: %s", err, stderr.String())}
	}
	var o outcome
	if err := json.Unmarshal(out, &o); err != nil {
		return outcome{setupErr: fmt.Sprintf("printed %q: %v", out, err)}
	}
	return o
}

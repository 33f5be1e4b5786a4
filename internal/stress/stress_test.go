package stress

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
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
	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// The test binary is also the child: the supervisor re-executes it.
func TestMain(m *testing.M) {
	child.RunIfChild()
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

var cacheDir string

// wrongScript expects what it does not do: the report must say it
// failed, with its envelope.
const wrongScript = "// expect: ok\n// value: 2\n// category: escape\n// source: original\nreturn 1;"

var (
	smallOnce sync.Once
	smallRep  *Report
	smallErr  error
)

// smallRun is one short run shared by the tests below: a corpus of one
// honest attack and one wrong expectation, and faults at a high rate.
func smallRun(t *testing.T) *Report {
	t.Helper()
	smallOnce.Do(func() {
		wrong, err := attacks.Parse("escape/wrong", wrongScript)
		if err != nil {
			smallErr = err
			return
		}
		loop, err := attacks.Parse("resource/loop", "// expect: TimeoutError\n// timeout: 200ms\n// category: resource\n// source: original\nfor (;;) {}")
		if err != nil {
			smallErr = err
			return
		}
		smallRep, smallErr = Run(context.Background(), Config{
			Supervisor: supervisor.Config{CacheDir: cacheDir},
			Scripts:    []attacks.Script{wrong, loop},
			N:          24, Baseline: 6, AttackShare: 0.2,
			Faults: []string{"kill-child", "kill-during-data", "oom", "fail-handler"}, FaultRate: 0.4,
			TempDirs: []string{os.TempDir()}, Seed: 1,
		})
	})
	if smallErr != nil {
		t.Fatal(smallErr)
	}
	return smallRep
}

func script(rep *Report, name string) (ScriptResult, bool) {
	for _, s := range rep.Scripts {
		if s.Name == name {
			return s, true
		}
	}
	return ScriptResult{}, false
}

// TestFaultsInjected: each fault ran on its victim and the victim ended
// as the fault says it must (a SIGKILLed child is a SandboxError, a
// squeezed cgroup an oom_kill); faults that need root are skipped, and
// say so, without it.
func TestFaultsInjected(t *testing.T) {
	rep := smallRun(t)
	for _, name := range []string{"fault/kill-child", "fault/kill-during-data", "fault/oom", "fault/fail-handler"} {
		s, ok := script(rep, name)
		if !ok {
			t.Errorf("%s never ran", name)
			continue
		}
		if s.Failed > 0 {
			t.Errorf("%s: %d failed: %+v", name, s.Failed, s.Failures)
		}
		if s.Skipped > 0 && os.Geteuid() == 0 {
			t.Errorf("%s skipped as root", name)
		}
		if s.Passed+s.Skipped == 0 {
			t.Errorf("%s: nothing ran", name)
		}
	}
}

// TestFailedExpectationReported: a script whose outcome misses its
// expectation fails the run, and the report names it with its envelope.
func TestFailedExpectationReported(t *testing.T) {
	rep := smallRun(t)
	if rep.OK || rep.Failures == 0 {
		t.Fatalf("report OK=%v with %d failures, want a failed run", rep.OK, rep.Failures)
	}
	s, ok := script(rep, "escape/wrong")
	if !ok || s.Failed == 0 || len(s.Failures) == 0 {
		t.Fatalf("escape/wrong: %+v", s)
	}
	if f := s.Failures[0]; string(f.Envelope.Value) != "1" || !strings.Contains(f.Error, "want 2") {
		t.Errorf("failure %+v, want the envelope with value 1 and the expectation", f)
	}
	if l, ok := script(rep, "resource/loop"); !ok || l.Failed > 0 {
		t.Errorf("resource/loop: %+v", l)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"FAIL:", "escape/wrong: FAILED", `envelope: {"ok":true,"value":1`, "left behind: nothing"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if len(rep.Leaks) > 0 {
		t.Errorf("leaks: %v", rep.Leaks)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) {
		t.Errorf("JSON report: %v", err)
	}
}

// TestHTMLReport: the page parses as XML, holds the summary table and
// the latency and RSS plots with data in them, and loads nothing.
func TestHTMLReport(t *testing.T) {
	rep := smallRun(t)
	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(page.Bytes(), []byte("<!DOCTYPE html>\n"))))
	d.Entity = xml.HTMLEntity
	found := map[string]int{}
	inSVG := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			for _, a := range e.Attr {
				if a.Name.Local == "src" || a.Name.Local == "href" {
					t.Errorf("<%s %s=%q>: the page must load nothing", e.Name.Local, a.Name.Local, a.Value)
				}
				if a.Name.Local == "id" && e.Name.Local == "svg" {
					inSVG = a.Value
				}
				if a.Name.Local == "id" && e.Name.Local == "table" {
					found["table:"+a.Value]++
				}
			}
			if inSVG != "" && (e.Name.Local == "circle" || e.Name.Local == "polyline") {
				found[inSVG]++
			}
		case xml.EndElement:
			if e.Name.Local == "svg" {
				inSVG = ""
			}
		}
	}
	for _, want := range []string{"table:summary", "latency", "rss"} {
		if found[want] == 0 {
			t.Errorf("the page has no %s with data (found %v)", want, found)
		}
	}
	if strings.Contains(strings.ReplaceAll(page.String(), `xmlns="http://www.w3.org/2000/svg"`, ""), "http") {
		t.Error("the page names a URL")
	}
}

// TestAuditNoticesLeftovers: a process, a temporary file and a
// descriptor left after the "after" snapshot are each reported.
func TestAuditNoticesLeftovers(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	before := takeSnapshot(start, []string{dir})
	if left := leaks(before, takeSnapshot(start, []string{dir})); len(left) > 0 {
		t.Fatalf("nothing planted, yet: %v", left)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if err := os.WriteFile(filepath.Join(dir, "plugin-socket"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	left := strings.Join(leaks(before, takeSnapshot(start, []string{dir})), "\n")
	for _, want := range []string{"process left: ", "sleep 30", "temporary file left: " + filepath.Join(dir, "plugin-socket"), "descriptors left: 1 more " + os.Args[0]} {
		if !strings.Contains(left, want) {
			t.Errorf("audit missed %q; it says:\n%s", want, left)
		}
	}
}

// TestConfigErrors: what Run refuses before it starts anything.
func TestConfigErrors(t *testing.T) {
	ok, _ := attacks.Parse("escape/x", "// expect: ok\n// value: 1\n// category: escape\n// source: original\nreturn 1;")
	victimish := ok
	victimish.Steps = []attacks.Step{{Request: contract.Request{Code: "return 1", Limits: contract.Limits{MemoryBytes: busyMemory}}}}
	for name, cfg := range map[string]Config{
		"no scripts":    {},
		"unknown fault": {Scripts: []attacks.Script{ok}, Faults: []string{"meteor"}},
		"shares":        {Scripts: []attacks.Script{ok}, AttackShare: 0.8, FaultRate: 0.5},
		"victim memory": {Scripts: []attacks.Script{victimish}},
	} {
		var ce *ConfigError
		if _, err := Run(context.Background(), cfg); !errors.As(err, &ce) {
			t.Errorf("%s: %v, want a *ConfigError", name, err)
		}
	}
}

// refuseAll is an Executor that fails the test if anything runs on it.
type refuseAll struct{ t *testing.T }

func (r refuseAll) Execute(context.Context, contract.Request, contract.DataHandler) (contract.Result, error) {
	r.t.Error("an execution ran")
	return contract.Result{}, errors.New("refused")
}

// TestRemoteFaultRefused: against a daemon (Config.Remote), every fault
// but the data handler's is refused before anything runs, naming it.
func TestRemoteFaultRefused(t *testing.T) {
	ok, _ := attacks.Parse("escape/x", "// expect: ok\n// value: 1\n// category: escape\n// source: original\nreturn 1;")
	for _, f := range Faults {
		if slices.Contains(RemoteFaults, f) {
			continue
		}
		_, err := Run(context.Background(), Config{Scripts: []attacks.Script{ok}, Remote: refuseAll{t}, Faults: []string{"fail-handler", f}})
		var rf *RemoteFaultError
		if !errors.As(err, &rf) || rf.Fault != f || !strings.Contains(err.Error(), f) {
			t.Errorf("%s: %v, want a *RemoteFaultError naming it", f, err)
		}
	}
}

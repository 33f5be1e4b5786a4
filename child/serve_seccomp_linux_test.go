//go:build linux && amd64

package child

// The seccomp filter's own tests are in child/seccomp; this one runs it
// inside the real child.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/child/seccomp"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/ipc"
)

// serveHelperEnv makes the test binary the real child (TestServeHelper).
const serveHelperEnv = "WARDEN_CHILD_TEST_SERVE"

// TestServeHelper is not a test: it is the child's main when
// TestSeccompRealChild starts the test binary with serveHelperEnv set,
// and does nothing otherwise.
func TestServeHelper(t *testing.T) {
	if os.Getenv(serveHelperEnv) == "" {
		return
	}
	// A SIGSYS kill would otherwise dump core.
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	// unix.Exit, not os.Exit: no exit hooks (coverage would open files).
	unix.Exit(Main())
}

// The real child (Main: prepare, go-plugin, gRPC) serves an execution
// with the filter on (installed by Run), answers a data request, streams
// logs, runs past sysmon's one-second refresh, and exits normally when
// the supervisor shuts it down gracefully (go-plugin then removes its
// socket file: unlinkat, refused with EPERM).
func TestSeccompRealChild(t *testing.T) {
	requireSeccomp(t)
	cfg, err := json.Marshal(ipc.ChildConfig{
		MemoryBytes: contract.DefaultLimits.MemoryBytes,
		CacheDir:    t.TempDir(),
		Harden:      ipc.Hardening{NoNewPrivs: true, Rlimits: true, Seccomp: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeHelper$")
	cmd.Env = []string{serveHelperEnv + "=1", ipc.ChildConfigEnv + "=" + string(cfg)}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := ipc.Start(ctx, ipc.ProcessConfig{Cmd: cmd, StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if _, err := p.Client().Ping(ctx); err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID()))
	if err != nil || !bytes.Contains(status, []byte("Seccomp:\t0\n")) {
		t.Fatalf("the child has a filter before its execution (%v)", err)
	}

	code := `
console.log("start");
const a = [];
for (let i = 0; i < 50000; i++) a.push({i, s: "x" + i});
const d = await host.request("double", {n: input.n});
console.log("got", JSON.stringify(d));
const t0 = Date.now();
await new Promise((r) => setTimeout(r, 50));
console.log("slept", Date.now() - t0 >= 45);
const end = Date.now() + 1200;
let spins = 0;
while (Date.now() < end) spins++;
return {len: a.length, h: sha256("abc"), d, spun: spins > 0};
`
	// A child runs resolved limits, as the supervisor sends them.
	limits, _, err := contract.Resolve(contract.Limits{Timeout: 10 * time.Second, DataRequests: 10, DataBytes: 1 << 20}, contract.DefaultLimits, contract.DefaultCaps)
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	res, err := p.Client().Execute(ctx, contract.Request{
		ID: "seccomp", Code: code, Input: json.RawMessage(`{"n":21}`), Limits: limits,
	}, func(e contract.Event) {
		if e.Log != nil {
			logs = append(logs, e.Log.Text)
		}
	}, func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		var in struct{ N int }
		if err := json.Unmarshal(args, &in); err != nil || name != "double" {
			return nil, fmt.Errorf("bad request %s %s", name, args)
		}
		return json.RawMessage(strconv.Itoa(2 * in.N)), nil
	})
	if err != nil {
		t.Fatalf("execute: %v", err)
	}
	if !res.OK {
		t.Fatalf("execution failed: %+v", res.Error)
	}
	want := `{"len":50000,"h":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad","d":42,"spun":true}`
	if string(res.Value) != want {
		t.Fatalf("value %s, want %s", res.Value, want)
	}
	// The timer's wait (a Go timer in the child) passes the filter too.
	if strings.Join(logs, "|") != "start|got 42|slept true" {
		t.Fatalf("logs %q", logs)
	}
	n := testutil.ThreadsSeccomped(t, p.PID())
	t.Logf("child %d: %d threads, all filtered; child CPU %.1f ms, max RSS %d MiB", p.PID(), n, res.Stats.ChildCPUMS, res.Stats.ChildMaxRSSBytes>>20)

	p.Kill() // graceful: go-plugin's Shutdown, then the child exits
	if cmd.ProcessState == nil {
		t.Fatal("the child was not reaped")
	}
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("want exit status 0, got wait status %#x (%s)", uint32(ws), cmd.ProcessState)
	}
}

// requireSeccomp skips when the kernel cannot run the filter.
func requireSeccomp(t *testing.T) {
	t.Helper()
	if ok, why := seccomp.Available(); !ok {
		t.Skipf("kernel without usable seccomp: %s", why)
	}
}

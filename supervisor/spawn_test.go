package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/ipc"
)

// wedgeArg is the first child argument that makes the test binary's
// child mode wedge (wedgedChildMain) instead of serving normally.
const wedgeArg = "wedge"

// wedgedChildMain is the child's main when the supervisor started it with
// the arguments [wedge MODE DIR]. The first child to create DIR/wedged
// never completes the go-plugin handshake (MODE "handshake"), or
// completes it and then wedges: it never answers
// its first Ping (MODE "ping"), or answers it but never takes up the
// execution's stream (MODE "open"), or, as a subverted child could,
// answers it after telling the supervisor's gRPC client that it takes
// no streams at all (MODE "quota"). It writes its pid and its cgroups
// to DIR/wedged first. Every later child serves normally.
func wedgedChildMain(args []string) {
	if len(args) != 3 {
		os.Exit(child.Main())
	}
	mode, dir := args[1], args[2]
	f, err := os.OpenFile(filepath.Join(dir, "wedged"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		os.Exit(child.Main())
	}
	if mode == "handshake" {
		// Never completes the handshake.
		fmt.Fprintf(f, "%d\n", os.Getpid())
		f.Close()
		time.Sleep(time.Hour)
	}
	ipc.Serve(&wedgedRunner{mode: mode, report: f}, ipc.WireCaps{}, nil)
	os.Exit(0)
}

type wedgedRunner struct {
	mode   string
	report *os.File
}

// Startup runs inside the Ping handler: in mode "ping" it never returns.
func (r *wedgedRunner) Startup() ipc.Startup {
	cg, _ := os.ReadFile("/proc/self/cgroup")
	fmt.Fprintf(r.report, "%d\n%s", os.Getpid(), cg)
	r.report.Close()
	switch r.mode {
	case "ping":
		time.Sleep(time.Hour)
	case "quota":
		withholdStreams()
	}
	return ipc.Startup{}
}

// withholdStreams writes an HTTP/2 SETTINGS frame with
// MAX_CONCURRENT_STREAMS 0 onto this child's gRPC connection (its one
// connected socket), past its own gRPC server: the supervisor's client
// can then open no stream until the setting changes, which it never
// does. Called while the server handles Ping, when nothing else writes.
func withholdStreams() {
	frame := []byte{0, 0, 6, 0x4, 0, 0, 0, 0, 0, 0, 0x3, 0, 0, 0, 0}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, e := range fds {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if l, _ := os.Readlink("/proc/self/fd/" + e.Name()); !strings.HasPrefix(l, "socket:") {
			continue
		}
		if listening, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ACCEPTCONN); err == nil && listening == 0 {
			syscall.Write(fd, frame)
		}
	}
}

// StreamOpened runs when the execution's stream opens, before the
// request is read: in mode "open" it never returns.
func (r *wedgedRunner) StreamOpened() {
	if r.mode == "open" {
		time.Sleep(time.Hour)
	}
}

func (r *wedgedRunner) Run(_ context.Context, req contract.Request, _ func(contract.Event), _ contract.DataHandler) contract.Result {
	return contract.Fail(errors.New("a wedged child ran an execution"), req.Limits)
}

// wedgedChild reads what the wedged child reported once it has: its pid
// and its cgroup directories.
func wedgedChild(t *testing.T, dir string, within time.Duration) (pid int, cgroups []string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		b, err := os.ReadFile(filepath.Join(dir, "wedged"))
		lines := strings.Split(string(b), "\n")
		if err == nil && len(lines) > 1 {
			if pid, err = strconv.Atoi(lines[0]); err == nil {
				for _, l := range lines[1:] {
					f := strings.SplitN(l, ":", 3)
					if len(f) == 3 && strings.Contains(f[2], "/warden-") && f[1] != "" && !strings.HasPrefix(f[1], "name=") {
						cgroups = append(cgroups, filepath.Join("/sys/fs/cgroup", f[1], f[2]))
					}
				}
				return pid, cgroups
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no wedged child reported within %v", within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wedgedSup is a supervisor whose first child wedges in mode.
func wedgedSup(t *testing.T, mode string, startTimeout time.Duration) (*Supervisor, string) {
	t.Helper()
	dir := t.TempDir()
	s := newSup(t, func(c *Config) {
		c.ChildArgs = []string{wedgeArg, mode, dir}
		// The wedged child writes to dir, which only this user can reach.
		c.ChildAsSupervisorUser = true
		// It reports its pid, which must be the supervisor's name for it
		// (in a PID namespace it would be 1).
		c.NoNamespaces = true
		c.PoolSize = 1
		c.StartTimeout = startTimeout
		c.QueueTimeout = 4 * startTimeout
	})
	return s, dir
}

// A child that completes the handshake but never answers its first ping,
// or withholds the stream the supervisor opens next, must not hold its
// spawn slot (or the compile gate).
func TestWedgedPingTimesOut(t *testing.T) {
	for _, mode := range []string{"ping", "quota"} {
		t.Run(mode, func(t *testing.T) { testWedgedStartup(t, mode) })
	}
}

// testWedgedStartup: the first child wedges in mode; its spawn fails
// within StartTimeout, the child is killed, its cgroup emptied, and the
// next child serves.
func testWedgedStartup(t *testing.T, mode string) {
	const startTimeout = 3 * time.Second
	s, dir := wedgedSup(t, mode, startTimeout)
	pid, cgroups := wedgedChild(t, dir, 2*startTimeout)
	start := time.Now()
	for s.Stats().Pool.SpawnFailures == 0 {
		if time.Since(start) > 2*startTimeout {
			t.Fatalf("the spawn of child %d, wedged (%s), still hangs after %v", pid, mode, time.Since(start))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("spawn failed %v after the child wedged: %s", time.Since(start).Round(time.Millisecond), s.Stats().Pool.LastSpawnError)
	if msg := s.Stats().Pool.LastSpawnError; !strings.Contains(msg, "start-up") || !strings.Contains(msg, startTimeout.String()) {
		t.Errorf("the spawn error should say the start-up took over %v: %q", startTimeout, msg)
	}
	testutil.RequireGone(t, pid, 2*time.Second)
	t.Logf("child %d gone; checking its cgroups %v", pid, cgroups)
	// Its group is removed, or empty and reset for the next child.
	for _, d := range cgroups {
		if procs, err := os.ReadFile(filepath.Join(d, "cgroup.procs")); err == nil && len(strings.TrimSpace(string(procs))) > 0 {
			t.Errorf("the wedged child's cgroup %s still has processes: %s", d, procs)
		}
	}
	requireServing(t, s)
}

// Opening the execution's stream does not wait for the child (gRPC
// sends the stream's headers and returns), so a child that answers its
// ping but never takes up the stream is handed out; its execution must
// still end at its deadline, even with a request larger than HTTP/2's
// flow-control window, and the supervisor keeps serving.
func TestWedgedStreamTimesOut(t *testing.T) {
	s, dir := wedgedSup(t, "open", 10*time.Second)
	pid, _ := wedgedChild(t, dir, 20*time.Second)
	for s.Stats().Pool.Idle == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	timeout := 300 * time.Millisecond
	big := `"` + strings.Repeat("x", 4<<20) + `"`
	start := time.Now()
	res, err := s.Execute(context.Background(), contract.Request{Code: "return input.length", Input: []byte(big), Limits: contract.Limits{Timeout: timeout}}, nil)
	elapsed := time.Since(start)
	if res.Stats.ChildPID != pid {
		t.Fatalf("the execution ran on child %d, not on the wedged child %d", res.Stats.ChildPID, pid)
	}
	if !errors.Is(err, contract.ErrTimeout) {
		t.Fatalf("want TimeoutError, got %v", err)
	}
	if limit := timeout + 250*time.Millisecond + time.Second; elapsed > limit {
		t.Fatalf("took %v, over %v", elapsed, limit)
	}
	t.Logf("the wedged child's execution ended after %v: %v", elapsed.Round(time.Millisecond), err)
	testutil.RequireGone(t, pid, 2*time.Second)
	requireServing(t, s)
}

// A request whose input is over MaxInputBytes fails at once with a
// ContractError, before a child is taken: here no child ever becomes
// ready, so taking one would end in a CapacityError after QueueTimeout.
func TestInputOverCapRefused(t *testing.T) {
	s := newSup(t, func(c *Config) {
		c.Binary = "/bin/sleep"
		c.ChildArgs = []string{"30"}
		c.QueueTimeout = 2 * time.Second
		c.MaxInputBytes = 1 << 10
	})
	start := time.Now()
	in := `"` + strings.Repeat("x", 1<<10-1) + `"`
	_, err := s.Execute(context.Background(), contract.Request{Code: "return input", Input: []byte(in)}, nil)
	if !errors.Is(err, contract.ErrContract) || !strings.Contains(err.Error(), "MaxInputBytes") {
		t.Fatalf("want a ContractError naming MaxInputBytes, got %v after %v", err, time.Since(start))
	}
	if el := time.Since(start); el > 500*time.Millisecond {
		t.Fatalf("refused after %v: it waited for a child", el)
	}
	if st := s.Stats(); st.Executions != 1 || st.Failures != 1 || st.Pool.Busy != 0 {
		t.Fatalf("stats after a refused request: %+v", st)
	}

	// At the cap, and under the default cap of a real supervisor, the
	// input goes through.
	in = `"` + strings.Repeat("x", 1<<10-2) + `"`
	s = newSup(t, func(c *Config) { c.MaxInputBytes = 1 << 10; c.PoolSize = 1 })
	if res, err := s.Execute(context.Background(), contract.Request{Code: "return input.length", Input: []byte(in)}, nil); err != nil || string(res.Value) != "1022" {
		t.Fatalf("an input of exactly MaxInputBytes: %s, %v", res.Value, err)
	}
	if s := newSup(t, func(c *Config) { c.Binary = "/bin/sleep"; c.ChildArgs = []string{"30"} }); s.cfg.MaxInputBytes != DefaultMaxInputBytes {
		t.Fatalf("default MaxInputBytes = %d", s.cfg.MaxInputBytes)
	}
}

// Close while a child is in its handshake: the spawn's start is
// abandoned, and the child must still be killed and its socket
// directory removed before Close returns, so that a program that closes
// its supervisor and exits leaves nothing behind (the child would
// otherwise be killed only when go-plugin's handshake timed out, by a
// goroutine the exiting program never waited for).
func TestCloseDuringHandshake(t *testing.T) {
	// Without cgroups nothing else kills the child (deleting its cgroup
	// would), so only Close's own clean-up can.
	for name, policy := range map[string]CgroupPolicy{"no cgroups": CgroupsOff, "cgroups if any": CgroupsAuto} {
		t.Run(name, func(t *testing.T) { testCloseDuringHandshake(t, policy) })
	}
}

func testCloseDuringHandshake(t *testing.T, policy CgroupPolicy) {
	dir := t.TempDir()
	s, err := New(Config{CacheDir: cacheDir, PoolSize: 1, ChildAsSupervisorUser: true, NoNamespaces: true, Cgroups: policy,
		ChildArgs: []string{wedgeArg, "handshake", dir}, StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := wedgedChild(t, dir, 20*time.Second)
	sockets := func() []string {
		m, _ := filepath.Glob(filepath.Join(os.TempDir(), "plugin-dir*"))
		return m
	}
	if len(sockets()) == 0 {
		t.Fatal("no socket directory while the child is in its handshake")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	s.Close(ctx)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Close took %v with a child in its handshake", el)
	}
	if left := sockets(); len(left) != 0 {
		t.Errorf("socket directories left after Close: %v", left)
	}
	testutil.RequireGone(t, pid, 2*time.Second)
}

// requireServing fails the test unless s still runs a script: whatever
// one execution did, the supervisor keeps serving.
func requireServing(t *testing.T, s *Supervisor) {
	t.Helper()
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatalf("the supervisor stopped serving: %v", err)
	}
}

// TestMalformedRequestRefused: what contract.Request.Check refuses is a
// ContractError before any child is taken (the children here never
// serve), whichever surface sent it: a module name with a NUL, which
// the engine's loader would read as a C string ("m\x00x" as "m"), or
// another control character, and input that is not UTF-8.
func TestMalformedRequestRefused(t *testing.T) {
	s := newSup(t, func(c *Config) {
		c.Binary = "/bin/sleep"
		c.ChildArgs = []string{"30"}
		c.QueueTimeout = 2 * time.Second
	})
	tests := []struct {
		name string
		req  contract.Request
		msg  string
	}{
		{"NUL in a module name", contract.Request{Code: `return (await import("m\0x")).default`,
			Modules: map[string]string{"m": "export default 1", "m\x00x": "export default 2"}}, `"m\x00x" has the control character U+0000`},
		{"newline in a module name", contract.Request{Code: "return 1", Modules: map[string]string{"a\nb": ""}}, "U+000A"},
		{"C1 control in a module name", contract.Request{Code: "return 1", Modules: map[string]string{"a\u0085": ""}}, "U+0085"},
		{"empty module name", contract.Request{Code: "return 1", Modules: map[string]string{"": ""}}, "empty"},
		{"input not UTF-8", contract.Request{Code: "return input", Input: []byte("\"\xed\xa0\x80\"")}, "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := s.Execute(context.Background(), tt.req, nil)
			if !errors.Is(err, contract.ErrContract) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("want a ContractError saying %q, got %v", tt.msg, err)
			}
			if el := time.Since(start); el > 500*time.Millisecond {
				t.Fatalf("refused after %v: it waited for a child", el)
			}
		})
	}
}

package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/ipc"
)

// The test binary is its own child: re-executed by the supervisor with
// go-plugin's cookie, it serves one execution instead of running tests.
func TestMain(m *testing.M) {
	// The compile child gets the same arguments: it must compile, not wedge.
	compileChild := strings.Contains(os.Getenv(ipc.ChildConfigEnv), `"compile_only":true`)
	if child.IsChild() && !compileChild && len(os.Args) > 1 && os.Args[1] == wedgeArg {
		wedgedChildMain(os.Args[1:])
	}
	child.RunIfChild()
	if os.Getenv("WARDEN_TEST_SUPERVISOR_HELPER") == "1" {
		supervisorHelper()
		return
	}
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// supervisorHelper is a supervisor process for TestSupervisorKilled: it
// fills its pool, prints its children's PIDs and waits to be killed.
func supervisorHelper() {
	s, err := New(Config{CacheDir: os.Getenv("WARDEN_TEST_CACHE"), PoolSize: 3})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	for s.Stats().Pool.Idle < 3 {
		time.Sleep(10 * time.Millisecond)
	}
	for _, pid := range childPIDs(nil) {
		fmt.Println(pid)
	}
	fmt.Println("ready")
	select {}
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// newSup makes a supervisor on the shared cache, closed when the test
// ends. (In the package, so that its tests can reach unexported state:
// testutil cannot import supervisor.)
func newSup(t testing.TB, mod func(*Config)) *Supervisor {
	t.Helper()
	cfg := Config{CacheDir: cacheDir, PoolSize: 2, QueueTimeout: testutil.Timeout(), StartTimeout: testutil.Timeout()}
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	testutil.CloseAtEnd(t, s)
	return s
}

func TestExecuteBasic(t *testing.T) {
	s := newSup(t, nil)
	res, err := s.Execute(context.Background(), contract.Request{Code: "console.log('hi'); return input.a + input.b", Input: json.RawMessage(`{"a":1,"b":2}`)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Value) != "3" || len(res.Logs) != 1 || res.Stats.ChildPID == 0 || res.Stats.ChildCPUMS == 0 {
		t.Fatalf("unexpected %+v", res)
	}
	t.Logf("stats %+v", res.Stats)
}

// childPIDs lists the live (not zombie) processes whose parent is this
// test process.
func childPIDs(t testing.TB) []int {
	if t != nil {
		t.Helper()
	}
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) > 1 && f[0] != "Z" && f[1] == strconv.Itoa(os.Getpid()) {
			out = append(out, pid)
		}
	}
	return out
}

func TestFreshChildPerExecution(t *testing.T) {
	s := newSup(t, nil)
	ctx := context.Background()
	r1, err := s.Execute(ctx, contract.Request{Code: "globalThis.leak = 42; Object.prototype.polluted = true; Array.prototype.push = null; return 1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := s.Execute(ctx, contract.Request{Code: "return [typeof leak, ({}).polluted === undefined, typeof [].push]"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(r2.Value) != `["undefined",true,"function"]` {
		t.Fatalf("second execution saw the first's state: %s", r2.Value)
	}
	if r1.Stats.ChildPID == r2.Stats.ChildPID || r1.Stats.ChildPID == 0 {
		t.Fatalf("same or missing child PID: %d %d", r1.Stats.ChildPID, r2.Stats.ChildPID)
	}
	testutil.RequireGone(t, r1.Stats.ChildPID, 2*time.Second)
}

func TestConcurrentExecutions(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 4 })
	total, callers := 500, 8
	if testing.Short() {
		total = 100
	}
	var wg sync.WaitGroup
	errs := make(chan error, total)
	pids := sync.Map{}
	for c := 0; c < callers; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := c; i < total; i += callers {
				res, err := s.Execute(context.Background(), contract.Request{
					Code:  "return input * 2 + (await host.request('one'))",
					Input: json.RawMessage(strconv.Itoa(i)),
				}, func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
					return json.RawMessage("1"), nil
				})
				if err != nil {
					errs <- fmt.Errorf("execution %d: %w", i, err)
					continue
				}
				if string(res.Value) != strconv.Itoa(2*i+1) {
					errs <- fmt.Errorf("execution %d: got %s", i, res.Value)
				}
				if _, dup := pids.LoadOrStore(res.Stats.ChildPID, i); dup {
					errs <- fmt.Errorf("execution %d: child %d reused", i, res.Stats.ChildPID)
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := s.Stats()
	t.Logf("stats: %+v", st)
	if st.Executions != uint64(total) {
		t.Fatalf("executions %d, want %d", st.Executions, total)
	}
}

func TestBlockedHandlerTimesOut(t *testing.T) {
	s := newSup(t, nil)
	timeout := 200 * time.Millisecond
	block := make(chan struct{})
	defer close(block)
	start := time.Now()
	res, err := s.Execute(context.Background(), contract.Request{Code: "return await host.request('forever')", Limits: contract.Limits{Timeout: timeout}},
		func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
			<-block // ignores ctx on purpose
			return nil, nil
		})
	elapsed := time.Since(start)
	if !errors.Is(err, contract.ErrTimeout) {
		t.Fatalf("want TimeoutError, got %v", err)
	}
	// Deadline + the 250ms grace + a margin for a loaded machine.
	if limit := timeout + 250*time.Millisecond + time.Second; elapsed > limit {
		t.Fatalf("took %v, over %v", elapsed, limit)
	}
	testutil.RequireGone(t, res.Stats.ChildPID, 2*time.Second)
}

func TestSlowBuiltinKilled(t *testing.T) {
	s := newSup(t, nil)
	start := time.Now()
	res, err := s.Execute(context.Background(), contract.Request{
		Code:   "const a = new Array(1e6).fill(0); for (let i = 0; i < 1e6; i++) a.indexOf(1); return 1",
		Limits: contract.Limits{Timeout: 200 * time.Millisecond, MemoryBytes: 32 << 20},
	}, nil)
	if !errors.Is(err, contract.ErrTimeout) {
		t.Fatalf("want TimeoutError, got %v", err)
	}
	if el := time.Since(start); el > 200*time.Millisecond+250*time.Millisecond+time.Second {
		t.Fatalf("took %v", el)
	}
	if s.Stats().Kills == 0 {
		t.Fatal("the slow builtin should have needed the SIGKILL layer")
	}
	testutil.RequireGone(t, res.Stats.ChildPID, 2*time.Second)
}

func TestChildKilledFromOutside(t *testing.T) {
	s := newSup(t, nil)
	ctx := context.Background()
	// Once the guest is running, kill every child of this process (the
	// executing one and the idle ones) from outside, as an operator or
	// the OOM killer might.
	// The handler may still be running when Execute returns: the
	// executing child's death ends the handler's context, and Execute
	// does not wait for a handler past it (boundHandler). handled says
	// when it is done with killed.
	var killed []int
	handled := make(chan struct{})
	_, err := s.Execute(ctx, contract.Request{Code: "await host.request('kill'); while (true) {}", Limits: contract.Limits{Timeout: 5 * time.Second}},
		func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
			defer close(handled)
			killed = childPIDs(t)
			for _, pid := range killed {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			return json.RawMessage("null"), nil
		})
	if !errors.Is(err, contract.ErrSandbox) {
		t.Fatalf("want SandboxError, got %v", err)
	}
	<-handled
	if len(killed) == 0 {
		t.Fatal("found no child to kill")
	}
	res, err := s.Execute(ctx, contract.Request{Code: "return 'still serving'"}, nil)
	if err != nil || string(res.Value) != `"still serving"` {
		t.Fatalf("next execution: %v %s", err, res.Value)
	}
}

func TestCancel(t *testing.T) {
	s := newSup(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, err := s.Execute(ctx, contract.Request{Code: "while (true) {}", Limits: contract.Limits{Timeout: 5 * time.Second}}, nil)
	if !errors.Is(err, contract.ErrAbort) {
		t.Fatalf("want AbortError, got %v", err)
	}
	testutil.RequireGone(t, res.Stats.ChildPID, 2*time.Second)
}

func TestCloseLeavesNoChild(t *testing.T) {
	s, err := New(Config{CacheDir: cacheDir, PoolSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatal(err)
	}
	// A busy child at Close time too.
	go s.Execute(context.Background(), contract.Request{Code: "while (true) {}", Limits: contract.Limits{Timeout: 10 * time.Second}}, nil)
	time.Sleep(200 * time.Millisecond)
	before := childPIDs(t)
	if len(before) == 0 {
		t.Fatal("expected idle children before Close")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	s.Close(ctx)
	for _, pid := range before {
		testutil.RequireGone(t, pid, 2*time.Second)
	}
	if left := childPIDs(t); len(left) != 0 {
		t.Fatalf("children left after Close: %v", left)
	}
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); !errors.Is(err, contract.ErrCapacity) {
		t.Fatalf("after Close: want CapacityError, got %v", err)
	}
}

func TestPoolExhausted(t *testing.T) {
	// A child binary that never completes the handshake: no child is ever
	// ready, so a request waits out the queue timeout.
	s := newSup(t, func(c *Config) {
		c.Binary = "/bin/sleep"
		c.ChildArgs = []string{"30"}
		c.QueueTimeout = 300 * time.Millisecond
		c.StartTimeout = 5 * time.Second
	})
	start := time.Now()
	_, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if !errors.Is(err, contract.ErrCapacity) {
		t.Fatalf("want CapacityError, got %v", err)
	}
	if el := time.Since(start); el < 300*time.Millisecond || el > 2*time.Second {
		t.Fatalf("CapacityError after %v, want about the 300ms queue timeout", el)
	}
}

func TestHandshakeFailureRetried(t *testing.T) {
	s := newSup(t, func(c *Config) {
		c.Binary = "/bin/false"
		c.ChildArgs = []string{}
		c.QueueTimeout = 1500 * time.Millisecond
	})
	_, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if !errors.Is(err, contract.ErrCapacity) {
		t.Fatalf("want CapacityError, got %v", err)
	}
	if !strings.Contains(err.Error(), "last spawn error") {
		t.Fatalf("the error should say why children fail to start: %v", err)
	}
	st := s.Stats().Pool
	if st.SpawnFailures < 3 {
		t.Fatalf("want the pool to keep retrying, %d failures", st.SpawnFailures)
	}
	t.Logf("after 1.5s: %d spawn failures; last: %s", st.SpawnFailures, st.LastSpawnError)
}

// TestSupervisorKilled: a supervisor that dies by SIGKILL takes its
// children with it (Pdeathsig), so none is left behind.
func TestSupervisorKilled(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// A supervisor killed this way cannot remove its children's socket
	// directories: they go in a temporary directory of the test's.
	cmd.Env = append(os.Environ(), "WARDEN_TEST_SUPERVISOR_HELPER=1", "WARDEN_TEST_CACHE="+cacheDir, "TMPDIR="+testutil.TempPublicDir(t))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
		pid, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatalf("helper: %s", sc.Text())
		}
		pids = append(pids, pid)
	}
	if len(pids) < 3 {
		t.Fatalf("helper reported children %v", pids)
	}
	stale := wardenCgroups(cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	for _, pid := range pids {
		testutil.RequireGone(t, pid, 2*time.Second)
	}
	// Its cgroups outlive it; the next supervisor's start removes them.
	if len(stale) == 0 {
		t.Logf("no cgroup layer here (the helper made no cgroups): skipping the stale-cgroup check")
		return
	}
	for _, d := range stale {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("expected the dead supervisor's cgroup %s to remain until the next start: %v", d, err)
		}
	}
	newSup(t, nil)
	for _, d := range stale {
		if _, err := os.Stat(d); err == nil {
			t.Fatalf("stale cgroup %s not removed by the next supervisor", d)
		}
	}
}

// wardenCgroups lists the warden-<pid> cgroup directories of supervisor
// pid, in every hierarchy this process is in.
func wardenCgroups(pid int) []string {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || f[1] == "" || strings.HasPrefix(f[1], "name=") {
			continue
		}
		m, _ := filepath.Glob(filepath.Join("/sys/fs/cgroup", f[1], f[2], cgroup.GroupName(pid)))
		out = append(out, m...)
	}
	return out
}

func waitABit() { time.Sleep(5 * time.Millisecond) }

// TestGuestCannotForgeLogs: go-plugin parses a child's stderr as log
// records; guest output never reaches it, so a script cannot forge a
// supervisor log line.
func TestGuestCannotForgeLogs(t *testing.T) {
	var logs testutil.SyncBuffer
	s := newSup(t, func(c *Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	forged := `{"@level":"error","@message":"FORGED-RECORD","@module":"supervisor"}`
	res, err := s.Execute(context.Background(), contract.Request{
		Code:  "console.error(input); console.log('\\n' + input + '\\n'); return input",
		Input: json.RawMessage(strconv.Quote(forged)),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Logs) != 2 {
		t.Fatalf("the guest's logs belong in the envelope: %+v", res.Logs)
	}
	time.Sleep(100 * time.Millisecond) // let go-plugin's stderr reader drain
	if strings.Contains(logs.String(), "FORGED-RECORD") {
		t.Fatalf("guest output reached the supervisor's logs:\n%s", logs.String())
	}
}

// TestIdleChildKilledIsSkipped: a child killed while idle, and handed out
// before the pool notices, costs a retry, not a failed execution.
func TestIdleChildKilledIsSkipped(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 3 })
	for s.Stats().Pool.Idle < 3 {
		waitABit()
	}
	for _, pid := range childPIDs(t) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 7"}, nil)
	if err != nil || string(res.Value) != "7" {
		t.Fatalf("want the execution to succeed on a live child, got %v %s", err, res.Value)
	}
}

// TestStartupAccount: every spawned child reports its start-up phase by
// phase, and the supervisor adds its own view of spawn. The phases are
// real measurements: the module load and the runtime start each cost
// CPU time and page faults, and the child's phases add up to no more
// than the supervisor saw the whole spawn take.
func TestStartupAccount(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1 })
	for i := 0; i < 3; i++ {
		if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	phases := map[string]PhaseStat{}
	var childWall float64
	for _, p := range s.Stats().Startup {
		phases[p.Side+"/"+p.Name] = p
		if p.Side == "child" {
			childWall += p.WallMS
		}
		t.Logf("%-10s %-50s samples %d wall %.1f ms cpu %.1f ms faults %.0f", p.Side, p.Name, p.Samples, p.WallMS, p.CPUMS, p.PageFaults)
	}
	// The VM phase is the heap snapshot's: the compile child made one.
	for _, name := range []string{child.PhaseExecToMain, child.PhaseModule, child.PhaseVMSnapshot} {
		p, ok := phases["child/"+name]
		if !ok {
			t.Fatalf("no child phase %q in %v", name, s.Stats().Startup)
		}
		if p.Samples < 3 || p.WallMS <= 0 || p.CPUMS <= 0 || p.PageFaults <= 0 {
			t.Errorf("child phase %q = %+v, want >= 3 samples and positive wall, CPU and faults", name, p)
		}
	}
	if _, ok := phases["child/"+child.PhaseServe]; !ok {
		t.Errorf("no serve phase")
	}
	hs, ok := phases["supervisor/"+phaseHandshake]
	if !ok || hs.WallMS <= 0 {
		t.Fatalf("supervisor handshake phase = %+v, %v", hs, ok)
	}
	// The child's phases before the handshake all happen inside the
	// supervisor's start+handshake (medians, so allow some slack).
	if before := childWall - phases["child/"+child.PhaseServe].WallMS; before > 1.5*hs.WallMS {
		t.Errorf("child phases before serving sum to %.1f ms, more than the %.1f ms the supervisor saw", before, hs.WallMS)
	}
}

// TestLargeMessagesCrossTheWire: a result, logs, an input and a data
// answer of several MiB each (more than gRPC's default 4 MiB message
// limit) cross between supervisor and child when the limits allow them.
func TestLargeMessagesCrossTheWire(t *testing.T) {
	s := newSup(t, func(c *Config) { c.PoolSize = 1 })
	big := strings.Repeat("x", 5<<20)
	input, _ := json.Marshal(map[string]string{"s": big})
	answer, _ := json.Marshal(big)
	res, err := s.Execute(context.Background(), contract.Request{
		Code: `const a = await host.request("big");
console.log(input.s);
return input.s.length + a.length + (input.s + "y").length`,
		Input:  input,
		Limits: contract.Limits{MemoryBytes: 128 << 20, OutputBytes: 8 << 20, Timeout: 10 * time.Second},
	}, func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return answer, nil })
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if want := fmt.Sprint(3*(5<<20) + 1); string(res.Value) != want {
		t.Errorf("value = %s, want %s", res.Value, want)
	}
	if len(res.Logs) != 1 || len(res.Logs[0].Text) != 5<<20 {
		t.Errorf("logs: %d entries", len(res.Logs))
	}
	// A result of 8 MiB plus 8 MiB of logs: the most the limits allow.
	res, err = s.Execute(context.Background(), contract.Request{
		Code:   `const s = "y".repeat(8 * 1024 * 1024 - 16); console.log(s); return s`,
		Limits: contract.Limits{MemoryBytes: 128 << 20, OutputBytes: 8 << 20, Timeout: 10 * time.Second},
	}, nil)
	if err != nil {
		t.Fatalf("Execute with 16 MiB of output: %v", err)
	}
}

// TestColdCacheCompiledOnce: a pool filling from a cold compilation cache
// has the compile child compile the module while the spawns wait; every
// child then loads it. A compiling child takes ~5,000 page faults in the
// module phase, a loading one ~1,200.
func TestColdCacheCompiledOnce(t *testing.T) {
	cold := filepath.Join(publicTempDir(t), "cache")
	s := newSup(t, func(c *Config) { c.CacheDir = cold; c.PoolSize = 3; c.SpawnConcurrency = 3 })
	deadline := time.Now().Add(60 * time.Second)
	for s.Stats().Pool.Idle < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("pool did not fill: %+v", s.Stats().Pool)
		}
		waitABit()
	}
	var module PhaseStat
	for _, p := range s.Stats().Startup {
		if p.Side == "child" && p.Name == child.PhaseModule {
			module = p
		}
	}
	t.Logf("module phase over %d children: median %.0f page faults, %.1f ms CPU", module.Samples, module.PageFaults, module.CPUMS)
	if module.Samples != 3 {
		t.Fatalf("module phase samples = %d, want 3", module.Samples)
	}
	if module.PageFaults > 3000 {
		t.Errorf("median module phase took %.0f page faults: a child compiled", module.PageFaults)
	}
	// Two files: the compiled module and the heap snapshot.
	if c := s.Cache(); !c.Ready || c.Files != 2 {
		t.Errorf("cache after the compile child: %+v", c)
	}
}

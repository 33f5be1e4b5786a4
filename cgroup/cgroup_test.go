//go:build linux

package cgroup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
	"golang.org/x/sys/unix"
)

// TestMain fails the run if any group of this test process is left in the
// cgroup filesystem after the tests, or any file in their TMPDIR.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(m.Run())
	}
	code := testutil.RunInTempDir(m.Run)
	if left := leftovers(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "cgroup tests left groups behind: %v\n", left)
		code = 1
	}
	os.Exit(code)
}

// leftovers lists warden-<our pid>* directories below our own cgroups.
func leftovers() []string {
	h := probeHost()
	var bases []string
	switch h.mode {
	case ModeV1:
		for c, mnt := range h.mounts {
			if d, err := dirOf(mnt, h.own1[c]); err == nil {
				bases = append(bases, d)
			}
		}
	case ModeV2:
		if d, err := dirOf(h.mount2, h.own2); err == nil {
			bases = append(bases, d)
		}
	}
	var out []string
	for _, b := range bases {
		matches, _ := filepath.Glob(filepath.Join(b, GroupName(os.Getpid())+"*"))
		out = append(out, matches...)
	}
	return out
}

// Test 1: a child that allocates past its memory cap is SIGKILLed by the
// kernel's OOM killer, the group counts the kill, and its peak is the cap.
func TestOOMKillIsCountedAndPeakNearCap(t *testing.T) {
	requireCgroups(t)
	m := newTestManager(t)
	const capBytes = 32 << 20
	g, err := m.Create("oom", Limits{MemoryBytes: capBytes, PidsMax: 64})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	cmd := helperCmd("alloc")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := startIn(g, cmd); err != nil {
		t.Fatalf("start helper in group: %v", err)
	}
	before, err := g.OOMKills()
	if err != nil {
		t.Fatalf("OOMKills before: %v", err)
	}
	if before != 0 {
		t.Fatalf("OOMKills before the run = %d, want 0", before)
	}
	// PeakBytes keeps its file open and re-reads it: the value before the
	// allocation is small, and the one after (below) near the cap.
	peakBefore, err := g.PeakBytes()
	if err != nil || peakBefore >= capBytes/2 {
		t.Fatalf("PeakBytes before the run = %d, %v; want well under %d", peakBefore, err, capBytes/2)
	}
	// The child is in the group; only now may it allocate.
	if _, err := stdin.Write([]byte("go\n")); err != nil {
		t.Fatalf("release helper: %v", err)
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("helper not killed within 20s; stdout %q", stdout.String())
	}
	if sig, ok := killedBy(werr); !ok || sig != syscall.SIGKILL {
		t.Fatalf("helper ended with %v (stdout %q, stderr %q), want SIGKILL", werr, stdout.String(), tail(stderr.String()))
	}
	after, err := g.OOMKills()
	if err != nil {
		t.Fatalf("OOMKills after: %v", err)
	}
	if after < 1 {
		t.Errorf("OOMKills after the run = %d, want >= 1", after)
	}
	u, err := g.Usage()
	if err != nil {
		t.Fatalf("Usage: %v", err)
	}
	t.Logf("usage after OOM: %+v", u)
	if u.OOMKills != after {
		t.Errorf("Usage().OOMKills = %d, OOMKills() = %d", u.OOMKills, after)
	}
	// memcg force-charges a few allocations past the cap (those that may
	// not fail, and those made while reclaiming), and v2's memory.peak
	// records them: the VM lane saw one page over.
	const forcedSlack = 256 << 10
	if u.PeakBytes < capBytes*3/4 || u.PeakBytes > capBytes+forcedSlack {
		t.Errorf("PeakBytes = %d, want within [%d, %d + %d]", u.PeakBytes, capBytes*3/4, capBytes, forcedSlack)
	}
	if peak, err := g.PeakBytes(); err != nil || peak != u.PeakBytes {
		t.Errorf("PeakBytes() = %d, %v; want Usage().PeakBytes = %d", peak, err, u.PeakBytes)
	}
	if err := g.Delete(); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	assertNoGroups(t, m)
}

// Test 2: with PidsMax 4, a shell that starts 20 background sleeps has its
// forks refused with EAGAIN once the group holds 4 tasks.
func TestPidsMaxRefusesForks(t *testing.T) {
	requireCgroups(t)
	testutil.RequireCmd(t, "sh")
	testutil.RequireCmd(t, "sleep")
	m := newTestManager(t)
	const pidsMax = 4
	g, err := m.Create("pids", Limits{MemoryBytes: 64 << 20, PidsMax: pidsMax})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if g.pidsDir == "" {
		t.Fatal("group has no pids directory although PidsMax was applied")
	}
	// A shell, not a Go helper: pids.max counts threads, and a Go runtime
	// that cannot start a thread aborts instead of reporting EAGAIN. The
	// sleeps must not hold the shell's output pipes, or Wait would wait
	// for them.
	script := `read go; i=0; while [ $i -lt 20 ]; do sleep 30 </dev/null >/dev/null 2>&1 & echo "started $!"; i=$((i+1)); done; wait`
	cmd := exec.Command("sh", "-c", script)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := startIn(g, cmd); err != nil {
		t.Fatalf("start shell in group: %v", err)
	}
	stdin.Write([]byte("go\n"))
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("shell still running after 10s: every fork succeeded? stdout %q", stdout.String())
	}
	started := strings.Count(stdout.String(), "started ")
	t.Logf("shell: %v; started %d sleeps; stderr %q", werr, started, strings.TrimSpace(stderr.String()))
	if werr == nil {
		t.Errorf("shell exited 0: no fork was refused")
	}
	if started >= pidsMax {
		t.Errorf("started %d sleeps beside the shell, want < %d", started, pidsMax)
	}
	if !strings.Contains(strings.ToLower(stderr.String()), "fork") {
		t.Errorf("shell stderr %q does not report a failed fork", stderr.String())
	}
	// The kernel's own count of refused forks (EAGAIN).
	refused, found, err := readKey(filepath.Join(g.pidsDir, "pids.events"), "max")
	switch {
	case err != nil:
		t.Errorf("read pids.events: %v", err)
	case !found:
		t.Logf("pids.events has no max counter on this kernel")
	case refused < 1:
		t.Errorf("pids.events max = %d, want >= 1 refused fork", refused)
	}
	u, err := g.Usage()
	if err != nil {
		t.Fatalf("Usage: %v", err)
	}
	if u.PidsCurrent > pidsMax {
		t.Errorf("PidsCurrent = %d, above the cap %d", u.PidsCurrent, pidsMax)
	}
	// The orphaned sleeps are still in the group; Delete must kill them.
	if err := g.Delete(); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	for _, line := range strings.Split(stdout.String(), "\n") {
		var pid int
		if _, err := fmt.Sscanf(line, "started %d", &pid); err == nil && !testutil.WaitGone(pid, 2*time.Second) {
			t.Errorf("sleep %d survived Delete", pid)
		}
	}
	assertNoGroups(t, m)
}

// Test 3: 200 Create/AddProc/Delete cycles, each with a real process (half
// exit on their own, half are killed by Delete), leave no directory behind
// in any controller.
func TestCreateDeleteCyclesLeaveNothing(t *testing.T) {
	requireCgroups(t)
	testutil.RequireCmd(t, "cat")
	m := newTestManager(t)
	const cycles = 200
	start := time.Now()
	for i := range cycles {
		name := fmt.Sprintf("cycle-%d", i)
		g, err := m.Create(name, Limits{MemoryBytes: 16 << 20, PidsMax: 8})
		if err != nil {
			t.Fatalf("cycle %d: Create: %v", i, err)
		}
		cmd := exec.Command("cat")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatalf("cycle %d: start: %v", i, err)
		}
		if err := g.AddProc(cmd.Process.Pid); err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("cycle %d: AddProc: %v", i, err)
		}
		exitsAlone := i%2 == 0
		if exitsAlone {
			stdin.Close()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("cycle %d: cat: %v", i, err)
			}
		}
		if err := g.Delete(); err != nil {
			t.Fatalf("cycle %d: Delete: %v", i, err)
		}
		if !exitsAlone {
			err := cmd.Wait()
			if sig, ok := killedBy(err); !ok || sig != syscall.SIGKILL {
				t.Fatalf("cycle %d: process ended with %v, want SIGKILL from Delete", i, err)
			}
			stdin.Close()
		}
		for _, d := range g.dirs {
			if exists(d.dir) {
				t.Fatalf("cycle %d: %s still exists after Delete", i, d.dir)
			}
		}
		if err := g.Delete(); err != nil {
			t.Fatalf("cycle %d: second Delete: %v", i, err)
		}
	}
	t.Logf("%d cycles in %v", cycles, time.Since(start))
	assertNoGroups(t, m)
}

// Concurrent Creates and Deletes (as a pool refilling in parallel does) and
// a Close racing them leave nothing behind.
func TestConcurrentCreateDelete(t *testing.T) {
	requireCgroups(t)
	m := newTestManager(t)
	const workers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				g, err := m.Create(fmt.Sprintf("w%d-%d", w, i), Limits{MemoryBytes: 16 << 20, PidsMax: 8})
				if err != nil {
					errs <- err
					continue
				}
				if err := g.Delete(); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assertNoGroups(t, m)

	// Close while Creates are in flight: each either fails with ErrClosed
	// or its group is removed by Close.
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if _, err := m.Create(fmt.Sprintf("late%d-%d", w, i), Limits{MemoryBytes: 16 << 20}); err != nil && !errors.Is(err, ErrClosed) {
					t.Errorf("Create during Close: %v", err)
				}
			}
		})
	}
	time.Sleep(time.Millisecond)
	if err := m.Close(); err != nil {
		t.Errorf("Close during Creates: %v", err)
	}
	wg.Wait()
	for _, p := range m.parents {
		if exists(p.dir) {
			t.Errorf("%s left after Close", p.dir)
		}
	}
}

// Test 4: the groups of a supervisor that was SIGKILLed are removed by the
// next New, and the process it left in them is killed.
func TestNewRemovesGroupsOfDeadSupervisor(t *testing.T) {
	requireCgroups(t)
	testutil.RequireCmd(t, "sleep")
	cmd, rep := startHelperSupervisor(t, "supervisor", 0)
	for _, d := range rep.Dirs {
		if !strings.HasPrefix(filepath.Base(d), GroupName(cmd.Process.Pid)) {
			t.Fatalf("helper's parent %s is not named after its pid %d", d, cmd.Process.Pid)
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if processGone(rep.Grandchild) {
		t.Fatalf("grandchild %d died with the helper; the test needs an orphan", rep.Grandchild)
	}
	for _, d := range rep.Dirs {
		if !exists(d) {
			t.Fatalf("%s vanished before the new supervisor started", d)
		}
	}

	newTestManager(t)

	wantGroups(t, rep.Dirs, false, "stale %s not removed by New")
	if !testutil.WaitGone(rep.Grandchild, 2*time.Second) {
		t.Errorf("orphan %d left by the dead supervisor still runs", rep.Grandchild)
	}
}

// A supervisor in a PID namespace of its own (a container's, with its own
// /proc) shares the cgroup parent with one on the host. It must not take
// the host supervisor's warden-<pid> for a dead one's because that pid is
// not in its /proc (it used to kill the live supervisor's children); and
// once it is dead itself, the host supervisor, which sees every process,
// removes its groups.
func TestNewTellsSupervisorsInOtherPIDNamespacesApart(t *testing.T) {
	requireCgroups(t)
	testutil.RequireCmd(t, "sleep")
	host, hostRep := startHelperSupervisor(t, "supervisor", 0)
	contained, containedRep := startHelperSupervisor(t, "supervisor-in-pid-namespace", syscall.CLONE_NEWPID|syscall.CLONE_NEWNS)

	// The contained supervisor's New ran its stale-group scan.

	if processGone(hostRep.Grandchild) {
		t.Errorf("the host supervisor's child %d was killed by a supervisor in another PID namespace", hostRep.Grandchild)
	}
	wantGroups(t, hostRep.Dirs, true, "the host supervisor's %s was removed by a supervisor in another PID namespace")
	ns := pidNamespace(strconv.Itoa(contained.Process.Pid))
	for _, d := range containedRep.Dirs {
		if want := fmt.Sprintf("warden-ns%d-1", ns); filepath.Base(d) != want {
			t.Errorf("the contained supervisor's group is %s, want %s (its namespace, then its pid there)", filepath.Base(d), want)
		}
	}

	// Its pid 1 killed, its namespace is gone: its groups are stale, the
	// live host supervisor's are not.
	contained.Process.Signal(syscall.SIGKILL)
	contained.Wait()
	newTestManager(t)
	wantGroups(t, containedRep.Dirs, false, "%s of a dead namespace's supervisor not removed")
	wantGroups(t, hostRep.Dirs, true, "the live host supervisor's %s was removed")

	host.Process.Signal(syscall.SIGKILL)
	host.Wait()
	newTestManager(t)
	wantGroups(t, hostRep.Dirs, false, "stale %s not removed by New")
}

// wantGroups reports each of dirs that exists when it should not, or is
// gone when it should exist, with msg (its %s the directory).
func wantGroups(t *testing.T, dirs []string, exist bool, msg string) {
	t.Helper()
	for _, d := range dirs {
		if exists(d) != exist {
			t.Errorf(msg, d)
		}
	}
}

// startHelperSupervisor starts a helper that acts as a supervisor (mode
// "supervisor", or "supervisor-in-pid-namespace" with cloneflags) and
// returns once it has made its groups and started a grandchild in one.
func startHelperSupervisor(t *testing.T, mode string, cloneflags uintptr) (*exec.Cmd, helperReport) {
	t.Helper()
	cmd := helperCmd(mode)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: cloneflags}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := readLine(out, 10*time.Second)
	var rep helperReport
	if err == nil {
		err = json.Unmarshal([]byte(line), &rep)
	}
	if err == nil && rep.Err != "" {
		err = errors.New(rep.Err)
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper %s: %v; stderr %s", mode, err, tail(stderr.String()))
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if rep.Grandchild > 0 && cloneflags&syscall.CLONE_NEWPID == 0 && !processGone(rep.Grandchild) {
			unix.Kill(rep.Grandchild, unix.SIGKILL)
		}
	})
	for _, d := range rep.Dirs {
		if !exists(d) {
			t.Fatalf("helper's parent %s does not exist", d)
		}
	}
	return cmd, rep
}

// Test 5: a cap that cannot be applied fails Create, and nothing is left.
func TestCreateFailsWhenACapCannotBeApplied(t *testing.T) {
	requireCgroups(t)
	m := newTestManager(t)
	tests := []struct {
		name     string
		limits   Limits
		expected []error
	}{
		{
			// PID_MAX_LIMIT is 4M; pids.max refuses more with EINVAL.
			name:     "pids.max above the kernel maximum",
			limits:   Limits{MemoryBytes: 32 << 20, PidsMax: 1 << 40},
			expected: []error{ErrLimit, unix.EINVAL},
		},
		{
			// The kernel would take this (rounded down to 0 pages).
			name:     "memory below 1 MiB",
			limits:   Limits{MemoryBytes: 4096},
			expected: []error{ErrInvalidLimits},
		},
		{
			name:     "negative pids",
			limits:   Limits{PidsMax: -1},
			expected: []error{ErrInvalidLimits},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := m.Create("refused", tc.limits)
			if err == nil {
				g.Delete()
				t.Fatalf("Create(%+v) succeeded", tc.limits)
			}
			t.Logf("Create(%+v): %v", tc.limits, err)
			for _, want := range tc.expected {
				if !errors.Is(err, want) {
					t.Errorf("error %q is not %v", err, want)
				}
			}
			assertNoGroups(t, m)
		})
	}

	t.Run("pids cap without a pids controller", func(t *testing.T) {
		h := probeHost()
		cfg := Config{Logger: testLogger(t)}
		switch h.mode {
		case ModeV1:
			// A v1 machine without the pids hierarchy.
			delete(h.mounts, "pids")
		case ModeV2:
			// A parent delegated memory but not pids: its own parent
			// enables only memory for it.
			top := fmt.Sprintf("/warden-test-nopids-%d", os.Getpid())
			dir := filepath.Join(h.mount2.point, top)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(dir)
			if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0); err != nil {
				t.Fatal(err)
			}
			cfg.Parent = top + "/sub"
		default:
			t.Skipf("needs cgroup v1 or v2; host is %s", h.mode)
		}
		m2, err := newManager(context.Background(), cfg, h)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		defer m2.Close()
		if _, err := m2.Create("nopids", Limits{MemoryBytes: 32 << 20, PidsMax: 8}); !errors.Is(err, ErrLimit) {
			t.Errorf("Create with PidsMax and no pids controller: %v, want ErrLimit", err)
		}
		assertNoGroups(t, m2)
	})

	t.Run("invalid names", func(t *testing.T) {
		for _, name := range []string{"", ".", "..", "a/b", "../x", "memory.limit_in_bytes", strings.Repeat("x", 65)} {
			if _, err := m.Create(name, Limits{}); !errors.Is(err, ErrInvalidName) {
				t.Errorf("Create(%q): %v, want ErrInvalidName", name, err)
			}
		}
	})

	t.Run("duplicate name", func(t *testing.T) {
		g, err := m.Create("dup", Limits{MemoryBytes: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		defer g.Delete()
		if _, err := m.Create("dup", Limits{}); !errors.Is(err, ErrExists) {
			t.Errorf("second Create: %v, want ErrExists", err)
		}
	})
}

// Test 6: Detect reports v1 with memory and pids on the CI machine (cgroup
// v1 hybrid, memory nested, pids at the root).
func TestDetectReportsV1OnCIMachine(t *testing.T) {
	r := Detect()
	t.Logf("Detect: %+v", r)
	if r.Reason == "" {
		t.Error("Detect gave no reason")
	}
	if r.Mode != ModeV1 {
		t.Skipf("pins the CI machine's cgroup v1 layout; this host is %q: %s", r.Mode, r.Reason)
	}
	if os.Geteuid() != 0 {
		t.Skipf("needs root for the writability probe (euid %d)", os.Geteuid())
	}
	for _, c := range []string{"memory", "pids"} {
		if !r.Controllers[c] {
			t.Errorf("controller %s reported missing", c)
		}
	}
	if !r.Writable {
		t.Error("reported not writable")
	}
	h := probeHost()
	memDir, err := dirOf(h.mounts["memory"], h.own1["memory"])
	if err != nil {
		t.Fatal(err)
	}
	if want := exists(filepath.Join(memDir, "memory.memsw.limit_in_bytes")); r.Controllers["swap"] != want {
		t.Errorf("swap = %v, but memory.memsw.limit_in_bytes exists = %v", r.Controllers["swap"], want)
	}
}

// BenchmarkCreateDelete measures Create + AddProc + Delete (which kills the
// process and waits for it to leave) for one real process per iteration.
func BenchmarkCreateDelete(b *testing.B) {
	requireCgroups(b)
	testutil.RequireCmd(b, "cat")
	m := newTestManager(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cmd, stdin := startCat(b)
		b.StartTimer()
		g, err := m.Create(fmt.Sprintf("bench-%d", i), Limits{MemoryBytes: 64 << 20, PidsMax: 32})
		if err != nil {
			b.Fatal(err)
		}
		if err := g.AddProc(cmd.Process.Pid); err != nil {
			b.Fatal(err)
		}
		if err := g.Delete(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		stdin.Close()
		cmd.Wait()
		b.StartTimer()
	}
}

// startCat starts cat, which runs until its stdin is closed.
func startCat(b *testing.B) (*exec.Cmd, io.WriteCloser) {
	b.Helper()
	cmd := exec.Command("cat")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return cmd, stdin
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// TestGroupOwnerNames: group names carry the owner's pid and, outside the
// initial PID namespace, its namespace; anything else is not a group of
// Warden's.
func TestGroupOwnerNames(t *testing.T) {
	const init = initPIDNamespace
	good := map[string]groupOwner{
		"warden-123":                  {123, init},
		"warden-123-2":                {123, init},
		"warden-probe-77":             {77, init},
		"warden-ns4026532001-1":       {1, 4026532001},
		"warden-ns4026532001-1-3":     {1, 4026532001},
		"warden-probe-ns4026532001-9": {9, 4026532001},
	}
	for name, want := range good {
		if got, ok := ownerOf(name); !ok || got != want {
			t.Errorf("ownerOf(%q) = %+v, %v; want %+v", name, got, ok, want)
		}
	}
	for _, name := range []string{"warden-", "warden-0", "warden-012", "warden-ns-1", "warden-nsx-1", "warden-ns0-1",
		"warden-ns4026532001", "warden-ns04026532001-1", "warden-12-x", "warden-abc", "other-12", "warden-ns1-1-x"} {
		if got, ok := ownerOf(name); ok {
			t.Errorf("ownerOf(%q) = %+v, want not a group of Warden's", name, got)
		}
	}
	self := groupOwner{os.Getpid(), ownPIDNamespace()}
	for _, name := range []string{parentName(os.Getpid(), 0), parentName(os.Getpid(), 4), groupName("probe-", os.Getpid(), 0)} {
		if got, ok := ownerOf(name); !ok || got != self {
			t.Errorf("ownerOf(%q) = %+v, %v; want this process %+v", name, got, ok, self)
		}
	}
}

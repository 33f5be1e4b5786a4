package guest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// helperEnv makes the test binary a helper process: "sleep" waits to be
// killed, "hog" touches memory until it is.
const helperEnv = "WARDEN_GUEST_HELPER"

func helper(kind string) int {
	switch kind {
	case "sleep":
		time.Sleep(time.Hour)
	case "hog":
		var keep [][]byte
		for {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	}
	return 2
}

func newManager(t *testing.T) *cgroup.Manager {
	t.Helper()
	m, err := cgroup.New(context.Background(), cgroup.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// startIn starts the command in g through CLONE_INTO_CGROUP.
func startIn(t *testing.T, g *cgroup.Group, cmd *exec.Cmd) {
	t.Helper()
	fd, ok := g.CgroupFD()
	if !ok {
		t.Fatal("no cgroup fd on v2")
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
}

func helperCmd(kind string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+kind)
	return cmd
}

// memory.oom.group: when one process of a child's group is OOM-killed,
// the kernel kills every process in it, so no half of a child survives.
func TestOOMGroupKillsTheWholeChild(t *testing.T) {
	requireV2(t)
	m := newManager(t)
	g, err := m.Create("oomgroup", cgroup.Limits{MemoryBytes: 32 << 20, PidsMax: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	dir := groupDir(t, "oomgroup")
	if v := readFile(t, filepath.Join(dir, "memory.oom.group")); v != "1" {
		t.Fatalf("memory.oom.group = %q, want 1", v)
	}
	sleeper := helperCmd("sleep")
	startIn(t, g, sleeper)
	hog := helperCmd("hog")
	startIn(t, g, hog)
	done := make(chan error, 2)
	go func() { done <- hog.Wait() }()
	go func() { done <- sleeper.Wait() }()
	for i := 0; i < 2; i++ {
		select {
		case err := <-done:
			if ws, ok := exitStatus(err); !ok || ws.Signal() != syscall.SIGKILL {
				t.Errorf("a process of the group ended with %v, want SIGKILL", err)
			}
		case <-time.After(30 * time.Second):
			sleeper.Process.Kill()
			hog.Process.Kill()
			t.Fatal("the hog and its sleeping neighbour were not both killed within 30s")
		}
	}
	events := readFile(t, filepath.Join(dir, "memory.events"))
	if !strings.Contains(events, "oom_group_kill 1") {
		t.Errorf("memory.events has no group kill:\n%s", events)
	}
	if n, _ := g.OOMKills(); n < 1 {
		t.Errorf("OOMKills = %d, want >= 1", n)
	}
	t.Logf("memory.events: %s", strings.ReplaceAll(events, "\n", ", "))
}

func exitStatus(err error) (syscall.WaitStatus, bool) {
	ee, ok := err.(*exec.ExitError)
	if !ok {
		return 0, false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ws, ok
}

// CLONE_INTO_CGROUP: a process started through the group's fd is in its
// group from its first instruction; cat(1) reads /proc/self/cgroup as its
// first act, with nothing of ours running in between.
func TestChildStartsInItsGroup(t *testing.T) {
	requireV2(t)
	m := newManager(t)
	g, err := m.Create("cloneinto", cgroup.Limits{MemoryBytes: 32 << 20, PidsMax: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skipf("skipping: no cat(1): %v", err)
	}
	var out bytes.Buffer
	cmd := exec.Command(cat, "/proc/self/cgroup")
	cmd.Stdout = &out
	startIn(t, g, cmd)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(out.String())
	if !strings.HasPrefix(got, "0::/") || !strings.HasSuffix(got, "/cloneinto") {
		t.Fatalf("/proc/self/cgroup of a process started into the group = %q, want 0::/.../cloneinto", got)
	}
	t.Logf("first read: %s", got)
}

// Swap: every child group gets memory.swap.max 0 where the kernel has
// swap accounting, so a capped child cannot page out to go past its cap.
func TestSwapCapped(t *testing.T) {
	requireV2(t)
	if r := cgroup.Detect(); !r.Controllers["swap"] {
		t.Skipf("skipping: this kernel has no swap accounting (memory.swap.max): %s", r.Reason)
	}
	m := newManager(t)
	g, err := m.Create("swapcap", cgroup.Limits{MemoryBytes: 32 << 20, PidsMax: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Delete()
	dir := groupDir(t, "swapcap")
	if v := readFile(t, filepath.Join(dir, "memory.swap.max")); v != "0" {
		t.Fatalf("memory.swap.max = %q, want 0", v)
	}
	if v := readFile(t, filepath.Join(dir, "memory.max")); v != fmt.Sprint(32<<20) {
		t.Fatalf("memory.max = %q, want %d", v, 32<<20)
	}
	// With a swap device, a process over its cap is OOM-killed with
	// nothing of it swapped out.
	if swapDevices() == "" {
		t.Log("no swap device: only the settings are checked")
		return
	}
	hog := helperCmd("hog")
	startIn(t, g, hog)
	done := make(chan error, 1)
	go func() { done <- hog.Wait() }()
	var maxSwap uint64
	deadline := time.Now().Add(60 * time.Second)
	for {
		if time.Now().After(deadline) {
			hog.Process.Kill()
			t.Fatalf("the hog was not OOM-killed within 60s (swap used: %d bytes)", maxSwap)
		}
		if n, err := strconv.ParseUint(readFile(t, filepath.Join(dir, "memory.swap.current")), 10, 64); err == nil {
			maxSwap = max(maxSwap, n)
		}
		select {
		case err := <-done:
			if ws, ok := exitStatus(err); !ok || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("the hog ended with %v, want SIGKILL", err)
			}
			if maxSwap != 0 {
				t.Fatalf("memory.swap.current reached %d bytes", maxSwap)
			}
			t.Logf("hog OOM-killed with swap (%s) available, none used", swapDevices())
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// swapDevices is /proc/swaps without its header ("" with no swap).
func swapDevices() string {
	b, _ := os.ReadFile("/proc/swaps")
	_, rest, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(rest)
}

// A supervisor SIGKILLed with live children leaves its warden-PID group;
// the next supervisor's New removes it, killing what is left in it
// through cgroup.kill.
func TestGroupsOfAKilledSupervisorAreRemoved(t *testing.T) {
	requireV2(t)
	if os.Getenv("WARDEN_GUEST_DEAD_SUPERVISOR") == "1" {
		// The supervisor that gets killed: a group with a sleeper in it.
		m, err := cgroup.New(context.Background(), cgroup.Config{Parent: os.Getenv("WARDEN_GUEST_PARENT")})
		if err != nil {
			t.Fatal(err)
		}
		g, err := m.Create("orphan", cgroup.Limits{MemoryBytes: 32 << 20, PidsMax: 8})
		if err != nil {
			t.Fatal(err)
		}
		s := helperCmd("sleep")
		startIn(t, g, s)
		fmt.Printf("SLEEPER %d\n", s.Process.Pid)
		time.Sleep(time.Hour)
		return
	}
	parent := "/vmtest-stale"
	cmd := exec.Command(os.Args[0], "-test.run", "^TestGroupsOfAKilledSupervisorAreRemoved$")
	// Its TMPDIR is ours to remove: it dies before it can.
	cmd.Env = append(os.Environ(), "WARDEN_GUEST_DEAD_SUPERVISOR=1", "WARDEN_GUEST_PARENT="+parent, "TMPDIR="+t.TempDir())
	var out testutil.SyncBuffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var sleeper int
	deadline := time.Now().Add(30 * time.Second)
	for sleeper == 0 && time.Now().Before(deadline) {
		fmt.Sscanf(strings.TrimSpace(out.String()), "SLEEPER %d", &sleeper)
		time.Sleep(20 * time.Millisecond)
	}
	if sleeper == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the doomed supervisor never started its child: %q", out.String())
	}
	cmd.Process.Kill()
	cmd.Wait()
	stale, _ := filepath.Glob("/sys/fs/cgroup" + parent + "/warden-*")
	if len(stale) == 0 {
		t.Fatal("the killed supervisor left no group to clean")
	}
	if testutil.Gone(sleeper) {
		t.Fatal("the child died with its supervisor; nothing left to test")
	}
	m, err := cgroup.New(context.Background(), cgroup.Config{Parent: parent})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	testutil.RequireGone(t, sleeper, 5*time.Second)
	for _, d := range stale {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("stale group %s still there", d)
		}
	}
	os.Remove("/sys/fs/cgroup" + parent)
}

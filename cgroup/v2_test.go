//go:build linux

package cgroup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/containerd/cgroups/v3"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"golang.org/x/sys/unix"
)

// TestV2CodeOnHybridUnifiedHierarchy runs the v2 code path against the real
// kernel on a hybrid machine, whose /sys/fs/cgroup/unified is a cgroup2
// hierarchy with no controllers: leaf move, stale cleanup with cgroup.kill,
// CLONE_INTO_CGROUP through CgroupFD, Kill, Delete, Close, and Create
// failing when the memory controller is missing. Caps themselves are covered
// by the other tests on whichever mode the machine has.
func TestV2CodeOnHybridUnifiedHierarchy(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skipf("needs root to create cgroups (euid %d)", os.Geteuid())
	}
	if mode := cgroups.Mode(); mode != cgroups.Hybrid {
		t.Skipf("needs a hybrid host with an empty unified hierarchy; cgroups.Mode() = %d (on a v2 host the other tests run the v2 code)", mode)
	}
	testutil.RequireCmd(t, "sleep")
	mounts, err := readMounts()
	if err != nil {
		t.Fatal(err)
	}
	_, own, err := cgroups.ParseCgroupFileUnified(procSelfCgroup)
	if err != nil {
		t.Fatal(err)
	}
	h := probeV2(host{}, mounts, hybridMount, own)
	if h.mode != ModeV2 {
		t.Skipf("unified hierarchy unusable: %s", h.reason)
	}
	ownDir, err := dirOf(h.mount2, own)
	if err != nil {
		t.Fatal(err)
	}
	// The helper's own cgroup: the test puts it there with CLONE_INTO_CGROUP.
	base := filepath.Join(ownDir, fmt.Sprintf("wardentest-v2-%d", os.Getpid()))
	if err := os.Mkdir(base, 0o755); err != nil {
		t.Skipf("cannot create a group in the unified hierarchy: %v", err)
	}
	t.Cleanup(func() {
		if err := removeTree(context.Background(), base); err != nil {
			t.Errorf("cleanup %s: %v", base, err)
		}
	})

	// A group left by a "dead supervisor" (pid above pid_max), with a
	// process still in it.
	stale := filepath.Join(base, "warden-4999999")
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	orphan := exec.Command("sleep", "60")
	if err := startInDir(orphan, stale); err != nil {
		t.Fatalf("start orphan: %v", err)
	}
	orphanDone := make(chan error, 1)
	go func() { orphanDone <- orphan.Wait() }()

	cmd := helperCmd("v2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := startInDir(cmd, base); err != nil {
		t.Fatalf("start helper: %v", err)
	}
	werr := cmd.Wait()
	t.Logf("helper log:\n%s", tail(stderr.String()))
	var rep helperReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("helper: %v; stdout %q", werr, stdout.String())
	}
	if rep.Err != "" || werr != nil {
		t.Fatalf("helper: %v: %s", werr, rep.Err)
	}
	select {
	case err := <-orphanDone:
		if sig, ok := killedBy(err); !ok || sig != syscall.SIGKILL {
			t.Errorf("orphan in the stale group ended with %v, want SIGKILL", err)
		}
	case <-time.After(2 * time.Second):
		orphan.Process.Kill()
		t.Error("orphan in the stale group still runs after New")
	}
	if exists(stale) {
		t.Errorf("stale group %s not removed", stale)
	}
	if !exists(filepath.Join(base, supervisorLeaf)) {
		t.Errorf("supervisor leaf %s/%s was not created", base, supervisorLeaf)
	}
	for _, d := range rep.Dirs {
		if exists(d) {
			t.Errorf("Close left %s behind", d)
		}
	}
}

// startInDir starts cmd inside the cgroup v2 directory dir.
func startInDir(cmd *exec.Cmd, dir string) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	cmd.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: fd}
	return cmd.Start()
}

// helperV2 drives a v2 Manager on the hybrid unified hierarchy and reports
// the first thing that went wrong.
func helperV2(_ []string) int {
	fail := func(format string, args ...any) int {
		return report(helperReport{Err: fmt.Sprintf(format, args...)})
	}
	mounts, err := readMounts()
	if err != nil {
		return fail("%v", err)
	}
	_, own, err := cgroups.ParseCgroupFileUnified(procSelfCgroup)
	if err != nil {
		return fail("%v", err)
	}
	h := probeV2(host{}, mounts, hybridMount, own)
	if h.mode != ModeV2 {
		return fail("probe: %s", h.reason)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m, err := newManager(context.Background(), Config{Logger: log}, h)
	if err != nil {
		return fail("New: %v", err)
	}
	defer m.Close()
	_, now, _ := cgroups.ParseCgroupFileUnified(procSelfCgroup)
	if now != filepath.Join(own, supervisorLeaf) {
		return fail("supervisor is in %q after New, want %q", now, filepath.Join(own, supervisorLeaf))
	}
	parent := m.parents[0].dir

	// A second Manager in the same process, now in the leaf, must use the
	// same base, not nest below the leaf.
	m2, err := newManager(context.Background(), Config{Logger: log}, probeV2(host{}, mounts, hybridMount, now))
	if err != nil {
		return fail("second New: %v", err)
	}
	if got := filepath.Dir(m2.parents[0].dir); got != filepath.Dir(parent) {
		return fail("second Manager's parent is in %s, want %s", got, filepath.Dir(parent))
	}
	if err := m2.Close(); err != nil {
		return fail("second Close: %v", err)
	}

	if _, err := m.Create("capped", Limits{MemoryBytes: 32 << 20}); !errors.Is(err, ErrLimit) {
		return fail("Create with a memory cap and no memory controller: %v, want ErrLimit", err)
	}
	g, err := m.Create("g", Limits{})
	if err != nil {
		return fail("Create: %v", err)
	}
	if _, ok := g.CgroupFD(); !ok {
		return fail("CgroupFD not available on v2")
	}
	cmd := exec.Command("sleep", "60")
	if err := startIn(g, cmd); err != nil {
		return fail("start in group: %v", err)
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", cmd.Process.Pid))
	if err != nil {
		return fail("%v", err)
	}
	want := "0::" + filepath.Join(own, filepath.Base(parent), "g")
	if !strings.Contains(string(b), want+"\n") {
		return fail("child cgroup %q, want a line %q (CLONE_INTO_CGROUP)", b, want)
	}
	if err := g.Kill(); err != nil {
		return fail("Kill: %v", err)
	}
	if sig, ok := killedBy(cmd.Wait()); !ok || sig != syscall.SIGKILL {
		return fail("child not SIGKILLed by cgroup.kill")
	}
	if err := g.Delete(); err != nil {
		return fail("Delete: %v", err)
	}
	if exists(g.dirs[0].dir) {
		return fail("Delete left %s", g.dirs[0].dir)
	}
	if _, ok := g.CgroupFD(); ok {
		return fail("CgroupFD still available after Delete")
	}
	// Close with a live group: it must kill and remove it.
	g2, err := m.Create("g2", Limits{})
	if err != nil {
		return fail("Create g2: %v", err)
	}
	cmd2 := exec.Command("sleep", "60")
	if err := startIn(g2, cmd2); err != nil {
		return fail("start in g2: %v", err)
	}
	go cmd2.Wait()
	if err := m.Close(); err != nil {
		return fail("Close: %v", err)
	}
	if !testutil.WaitGone(cmd2.Process.Pid, 2*time.Second) {
		return fail("Close left the process of g2 running")
	}
	return report(helperReport{Dirs: []string{parent}})
}

// TestIsHierarchyRootOnlyForTheRealRoot: a container's cgroup namespace
// shows its cgroup as "/", which once made New skip the move into the
// supervisor leaf there and fail to enable controllers (the VM lane's
// podman-privileged-doctor-every-layer). Only the hierarchy's real root,
// which has no cgroup.type, is exempt.
func TestIsHierarchyRootOnlyForTheRealRoot(t *testing.T) {
	var root string
	for _, p := range []string{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"} {
		var st unix.Statfs_t
		if unix.Statfs(p, &st) == nil && st.Type == unix.CGROUP2_SUPER_MAGIC {
			root = p
			break
		}
	}
	if root == "" {
		t.Skip("skipping: no cgroup v2 hierarchy mounted at /sys/fs/cgroup or /sys/fs/cgroup/unified")
	}
	if !isHierarchyRoot(root) {
		t.Errorf("isHierarchyRoot(%s) = false, want true", root)
	}
	// Any cgroup below the root is bound by the rule, even when it is
	// the root of a cgroup namespace; make one when none exists.
	sub, err := os.MkdirTemp(root, "warden-roottest-")
	if err != nil {
		t.Skipf("skipping: cannot create a cgroup below %s: %v", root, err)
	}
	defer unix.Rmdir(sub)
	if isHierarchyRoot(sub) {
		t.Errorf("isHierarchyRoot(%s) = true, want false", sub)
	}
}

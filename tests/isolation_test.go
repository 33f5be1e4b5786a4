//go:build wardenfaults

package tests

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

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// Layer 5, isolation: a child taken over (seccomp off, as if its filter
// were bypassed) cannot signal the other live children, read their
// environment or memory, or even find them in /proc. Without namespaces
// the uids alone still stop the signals and the reads (the host's /proc
// then lists the others).
func TestChildrenCannotReachOneAnother(t *testing.T) {
	testutil.RequireRoot(t, "give children uids and namespaces of their own")
	for _, tc := range []struct {
		name         string
		noNamespaces bool
	}{{"all layers", false}, {"own uids without namespaces", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp, c.NoNamespaces, c.PoolSize = true, tc.noNamespaces, 3 })
			victims := liveChildren(t, s, 3)
			res := fault(t, s, "neighbours", joinInts(victims))
			if !res.OK {
				t.Fatalf("fault failed: %+v", res.Error)
			}
			var r struct {
				Signalled, Environ, Mem, Listed []int
				Errors                          []string
			}
			if err := json.Unmarshal(res.Value, &r); err != nil {
				t.Fatal(err)
			}
			t.Logf("children %v; the attacker's errors: %v", victims, r.Errors)
			if len(r.Signalled)+len(r.Environ)+len(r.Mem) > 0 {
				t.Fatalf("a child reached its neighbours: signalled %v, read the environment of %v, opened the memory of %v",
					r.Signalled, r.Environ, r.Mem)
			}
			if !tc.noNamespaces && len(r.Listed) > 0 {
				t.Fatalf("a child found %v in its /proc", r.Listed)
			}
			for _, pid := range victims {
				if syscall.Kill(pid, 0) != nil && pid != res.Stats.ChildPID {
					t.Errorf("child %d is gone", pid)
				}
			}
		})
	}
}

// Layer 5, isolation: live children hold distinct uids and gids, from the
// configured range, and a process of another uid (nobody here) cannot
// signal them.
func TestChildrenHaveTheirOwnUIDs(t *testing.T) {
	testutil.RequireRoot(t, "give children uids and namespaces of their own")
	const base, count = 1<<30 + 4096, 8
	s := newSupervisor(t, func(c *supervisor.Config) { c.ChildUIDBase, c.ChildUIDCount, c.PoolSize = base, count, 4 })
	pids := liveChildren(t, s, 4)
	seen := map[int]int{}
	for _, pid := range pids {
		uid, gid := procIDs(t, pid)
		if uid < base || uid >= base+count || gid != uid {
			t.Errorf("child %d runs as %d:%d, want a uid in [%d, %d) and an equal gid", pid, uid, gid, base, base+count)
		}
		if other, dup := seen[uid]; dup {
			t.Errorf("children %d and %d share uid %d", other, pid, uid)
		}
		seen[uid] = pid
	}
	// Many more executions than uids: each reaped child gives its uid
	// back.
	for i := 0; i < 3*count; i++ {
		if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
			t.Fatalf("execution %d: %v", i, err)
		}
	}
	if _, err := os.Stat("/bin/kill"); err != nil {
		t.Skip("skipping the nobody check: no /bin/kill")
	}
	cmd := exec.Command("/bin/kill", "-0", strconv.Itoa(pids[0]))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("uid 65534 could signal child %d: %s", pids[0], out)
	}
}

// A range with fewer uids than the pool wants: the pool fills what it
// can, says why it cannot go on, and executions still run.
func TestChildUIDsExhausted(t *testing.T) {
	testutil.RequireRoot(t, "give children uids and namespaces of their own")
	s := newSupervisor(t, func(c *supervisor.Config) { c.ChildUIDBase, c.ChildUIDCount, c.PoolSize = 1<<30+8192, 2, 3 })
	liveChildren(t, s, 2)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.Stats().Pool.LastSpawnError, "every child uid is in use") {
		if time.Now().After(deadline) {
			t.Fatalf("want a spawn error naming the exhausted range, pool: %+v", s.Stats().Pool)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; i < 4; i++ {
		if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
			t.Fatalf("execution %d: %v", i, err)
		}
	}
}

// Layer 5, isolation: a child is pid 1 of its own PID namespace, its
// /proc shows no other process (not the supervisor), and it is not
// dumpable.
func TestChildSeesOnlyItself(t *testing.T) {
	testutil.RequireRoot(t, "give children uids and namespaces of their own")
	s := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true })
	if l := s.Layers(); !l.PIDNamespace || !l.PrivateProc {
		t.Skipf("skipping: no PID namespace or private /proc for children here: %s", l.NamespaceNote)
	}
	res := fault(t, s, "pidview", strconv.Itoa(os.Getpid()))
	if !res.OK {
		t.Fatalf("fault failed: %+v", res.Error)
	}
	var v struct {
		PID               int   `json:"pid"`
		Procs             []int `json:"procs"`
		SupervisorVisible bool  `json:"supervisor_visible"`
	}
	if err := json.Unmarshal(res.Value, &v); err != nil {
		t.Fatal(err)
	}
	if v.PID != 1 || len(v.Procs) != 1 || v.Procs[0] != 1 || v.SupervisorVisible {
		t.Fatalf("want pid 1 alone in its /proc, got %s", res.Value)
	}
	res = fault(t, s, "dumpable", "")
	if !res.OK || string(res.Value) != `{"dumpable":0}` {
		t.Fatalf("want a non-dumpable child, got %+v %s", res.Error, res.Value)
	}
	// The pagemap descriptor opened before the drop still reads.
	res = fault(t, s, "pagemap", "")
	if !res.OK || string(res.Value) != `{"present":true,"read":true}` {
		t.Fatalf("want the pagemap to read in a non-dumpable child, got %+v %s", res.Error, res.Value)
	}
}

// Layer 5, isolation: a child's own /proc stays in its mount namespace,
// even where mounts are shared (systemd makes / shared): it would
// otherwise cover the supervisor's /proc. The supervisor runs in a
// mount namespace of its own with shared propagation (unshare(1)) and
// counts its /proc mounts before and after a child.
func TestPrivateProcDoesNotPropagate(t *testing.T) {
	if os.Getenv("WARDEN_TEST_PROPAGATION_HELPER") == "1" {
		propagationHelper(t)
		return
	}
	testutil.RequireRoot(t, "give children uids and namespaces of their own")
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("skipping: no unshare(1) to make a mount namespace with shared propagation")
	}
	cmd := exec.Command("unshare", "--mount", "--propagation", "shared", "--", os.Args[0], "-test.run=^TestPrivateProcDoesNotPropagate$", "-test.v")
	cmd.Env = append(os.Environ(), "WARDEN_TEST_PROPAGATION_HELPER=1", "WARDEN_TEST_CACHE="+cacheDir)
	out, err := cmd.CombinedOutput()
	t.Logf("helper:\n%s", out)
	if err != nil {
		t.Fatalf("helper failed: %v", err)
	}
}

// propagationHelper is TestPrivateProcDoesNotPropagate's supervisor.
func propagationHelper(t *testing.T) {
	before := procMounts(t)
	s := newSupervisor(t, func(c *supervisor.Config) { c.PoolSize = 1 })
	if !s.Layers().PrivateProc {
		t.Skipf("skipping: children get no private /proc here: %s", s.Layers().NamespaceNote)
	}
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatal(err)
	}
	if after := procMounts(t); after != before {
		t.Fatalf("/proc mounts in the supervisor's namespace: %d before the child, %d after", before, after)
	}
	if _, err := os.Stat(fmt.Sprintf("/proc/%d", os.Getpid())); err != nil {
		t.Fatalf("the supervisor's /proc no longer shows it: %v", err)
	}
}

// procMounts counts the mounts on /proc in this process's namespace.
func procMounts(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && f[4] == "/proc" {
			n++
		}
	}
	return n
}

// liveChildren waits until s has n idle children and returns the pids of
// this process's children named warden-child.
func liveChildren(t *testing.T, s *supervisor.Supervisor, n int) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for s.Stats().Pool.Idle < n {
		if time.Now().After(deadline) {
			t.Fatalf("pool did not reach %d idle children: %+v", n, s.Stats().Pool)
		}
		time.Sleep(10 * time.Millisecond)
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if bytes.HasPrefix(cmd, []byte(supervisor.ChildProcessName+"\x00")) && procField(pid, "PPid:") == strconv.Itoa(os.Getpid()) {
			pids = append(pids, pid)
		}
	}
	if len(pids) < n {
		t.Fatalf("found %d warden-child processes of this test (%v), want %d", len(pids), pids, n)
	}
	return pids
}

// procField is the first value of a /proc/PID/status line.
func procField(pid int, key string) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == key {
			return f[1]
		}
	}
	return ""
}

// procIDs is pid's real uid and gid.
func procIDs(t *testing.T, pid int) (uid, gid int) {
	t.Helper()
	uid, err1 := strconv.Atoi(procField(pid, "Uid:"))
	gid, err2 := strconv.Atoi(procField(pid, "Gid:"))
	if err1 != nil || err2 != nil {
		t.Fatalf("cannot read the ids of %d", pid)
	}
	return uid, gid
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

//go:build wardenfaults

package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// These tests make the child's own Go code misbehave (faults.go, built
// only with the wardenfaults tag) and check that the layer meant to stop
// each misbehaviour stops it, with the layers above it switched off.

func fault(t *testing.T, s *supervisor.Supervisor, name, arg string) contract.Result {
	t.Helper()
	in, _ := json.Marshal(arg)
	res, _ := s.Execute(context.Background(), contract.Request{Code: "//fault:" + name, Input: in, Limits: contract.Limits{Timeout: 10 * time.Second}}, nil)
	return res
}

func requireCgroups(t *testing.T) {
	t.Helper()
	testutil.RequireRoot(t, "create cgroups")
	if r := cgroup.Detect(); !r.Usable() {
		t.Skipf("skipping: no writable cgroup memory controller here: %+v", r)
	}
}

// Layer 6: the cgroup memory cap OOM-kills a child whose Go side runs
// away, and the envelope says so.
func TestLayerCgroupOOMKill(t *testing.T) {
	requireCgroups(t)
	s := newSupervisor(t, func(c *supervisor.Config) { c.Cgroups = supervisor.CgroupsRequired; c.NoSeccomp = true })
	start := time.Now()
	res := fault(t, s, "oom", "")
	if res.OK || res.Error.Type != contract.ResourceError || res.Error.Kind != contract.KindOOMKill {
		t.Fatalf("want ResourceError/oom_kill, got %+v", res.Error)
	}
	t.Logf("OOM-killed after %v, cgroup peak %d bytes", time.Since(start), res.Stats.CgroupPeakBytes)
	requireServing(t, s)
}

// A child runs with the Go collector's pacing off and a soft memory limit
// below its cgroup cap. An execution whose Go side makes far more garbage
// than the cap (1,500 host.request answers of 64 KiB: ~200 MiB through
// gRPC, conversion and the guest) must still finish: the collector runs
// as the heap nears the limit. With pacing off and no limit, or a limit
// above the cap, this child is OOM-killed.
func TestGoGarbageStaysUnderTheCap(t *testing.T) {
	requireCgroups(t)
	s := newSupervisor(t, func(c *supervisor.Config) { c.Cgroups = supervisor.CgroupsRequired })
	blob, _ := json.Marshal(strings.Repeat("x", 64<<10))
	handler := func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return blob, nil }
	res, err := s.Execute(context.Background(), contract.Request{
		Code:   "let n = 0; for (let i = 0; i < 1500; i++) n += (await host.request('blob')).length; return n",
		Limits: contract.Limits{DataRequests: 2000, DataBytes: 128 << 20, Timeout: 30 * time.Second},
	}, handler)
	if err != nil {
		t.Fatalf("execution failed: %v (cgroup peak %d bytes)", err, res.Stats.CgroupPeakBytes)
	}
	if string(res.Value) != fmt.Sprint(1500*(64<<10)) {
		t.Fatalf("value = %s", res.Value)
	}
	t.Logf("cgroup peak %d MiB, child CPU %.0f ms", res.Stats.CgroupPeakBytes>>20, res.Stats.ChildCPUMS)
}

// The wire: a child whose Go side ignores the limits and sends an 8 MiB
// result is refused: the message fits the caps' message bound (the
// largest data request the caps allow), but not the largest result its
// request's limits allow (twice the output limit plus the error's 1 MiB
// and stats: about 3 MiB here), and the wire budget bounds what the
// supervisor buffers from it.
func TestWireBoundsWhatAChildSends(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.NoSeccomp = true
		c.Caps = contract.DefaultCaps
		c.Caps.OutputBytes = 1 << 20
	})
	res := fault(t, s, "flood", "")
	if res.OK || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, "its limits allow") {
		t.Fatalf("want a SandboxError for the oversized message, got %+v", res.Error)
	}
	requireServing(t, s)
}

// A child reports its own CPU time and peak RSS with its result, so a
// subverted child could understate them. With ReapedUsage the supervisor
// reaps the child first and reports the kernel's figures instead. The
// "uid" fault answers without any usage figures, as a lying child would.
func TestReapedUsageComesFromTheKernel(t *testing.T) {
	for _, reaped := range []bool{false, true} {
		// The fault calls getuid, which the seccomp filter forbids.
		s := newSupervisor(t, func(c *supervisor.Config) { c.ReapedUsage = reaped; c.NoSeccomp = true })
		res := fault(t, s, "uid", "")
		if !res.OK {
			t.Fatalf("reaped=%t: %+v", reaped, res.Error)
		}
		got := res.Stats.ChildCPUMS > 0 && res.Stats.ChildMaxRSSBytes > 0
		if got != reaped {
			t.Errorf("reaped=%t: child CPU %.1f ms, max RSS %d bytes; want figures only from the kernel", reaped, res.Stats.ChildCPUMS, res.Stats.ChildMaxRSSBytes)
		}
		t.Logf("reaped=%t: child CPU %.1f ms, max RSS %d bytes", reaped, res.Stats.ChildCPUMS, res.Stats.ChildMaxRSSBytes)
	}
}

// Without cgroups the child's RLIMIT_DATA is the memory layer: the
// runaway child dies instead of eating the machine.
func TestLayerRlimitDataFallback(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) { c.Cgroups = supervisor.CgroupsOff; c.NoSeccomp = true })
	res := fault(t, s, "oom", "")
	if res.OK || res.Error.Type != contract.SandboxError {
		t.Fatalf("want SandboxError (child died on its RLIMIT_DATA), got %+v", res.Error)
	}
	if res.Stats.ChildMaxRSSBytes > 400<<20 {
		t.Fatalf("child grew to %d bytes despite RLIMIT_DATA", res.Stats.ChildMaxRSSBytes)
	}
}

// Layer 5, namespaces: a child has no network even with seccomp off.
func TestLayerNetworkNamespace(t *testing.T) {
	testutil.RequireRoot(t, "create namespaces and cgroups")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	s := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true })
	res := fault(t, s, "connect", ln.Addr().String())
	if res.OK || !strings.Contains(res.Error.Message, "fault connect") {
		t.Fatalf("want the connect to fail inside the child, got %+v %s", res.Error, res.Value)
	}
	select {
	case <-accepted:
		t.Fatal("the loopback listener saw a connection from the child")
	case <-time.After(100 * time.Millisecond):
	}
	// With the namespace off (and seccomp off) the same fault connects:
	// the namespace is what stopped it.
	s2 := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true; c.NoNamespaces = true })
	if res := fault(t, s2, "connect", ln.Addr().String()); !res.OK {
		t.Fatalf("control run without the namespace should connect: %+v", res.Error)
	}
}

// Layer 5, rlimits: RLIMIT_FSIZE 0 stops file writes with seccomp off.
func TestLayerRlimitNoFileWrites(t *testing.T) {
	// Not t.TempDir(): its parent is 0700, out of reach of a child with
	// a uid of its own.
	dir, err := os.MkdirTemp("", "warden-fsize")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	path := filepath.Join(dir, "escaped")
	s := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true })
	res := fault(t, s, "write", path)
	if res.OK {
		t.Fatalf("the child wrote a file: %s", res.Value)
	}
	if b, _ := os.ReadFile(path); len(b) > 0 {
		t.Fatalf("file has content %q", b)
	}
	s2 := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true; c.NoRlimits = true })
	if res := fault(t, s2, "write", path+"2"); !res.OK {
		t.Fatalf("control run without rlimits should write: %+v", res.Error)
	}
}

// Layer 5, seccomp: exec, fork, sockets and file writes kill the child,
// with every other hardening layer off.
func TestLayerSeccomp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.NoNamespaces = true
		c.NoRlimits = true
		c.Cgroups = supervisor.CgroupsOff
	})
	for _, f := range []struct{ name, arg string }{
		{"exec", ""}, {"fork", ""}, {"connect", ln.Addr().String()}, {"write", filepath.Join(dir, "f")},
	} {
		t.Run(f.name, func(t *testing.T) {
			res := fault(t, s, f.name, f.arg)
			if res.OK || res.Error.Type != contract.SandboxError || !strings.Contains(res.Error.Message, "seccomp") {
				t.Fatalf("want SandboxError naming seccomp, got %+v %s", res.Error, res.Value)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
		t.Fatal("file created despite seccomp")
	}
}

// Layer 5, user: as root, children run as an unprivileged uid of their
// own. The child starts as root and switches before it reads any input,
// so it needs no binary the uid can execute: the test binary in its
// 0700 build directory serves.
func TestLayerUnprivilegedUser(t *testing.T) {
	testutil.RequireRoot(t, "create namespaces and cgroups")
	// getuid is not on the seccomp allow-list: ask with the filter off.
	probe := newSupervisor(t, func(c *supervisor.Config) { c.NoSeccomp = true })
	res := fault(t, probe, "uid", "")
	uid, err := strconv.Atoi(strings.Trim(string(res.Value), `"`))
	if !res.OK || err != nil {
		t.Fatalf("fault failed: %+v %s", res.Error, res.Value)
	}
	if uid < supervisor.DefaultChildUIDBase || uid >= supervisor.DefaultChildUIDBase+supervisor.DefaultChildUIDCount {
		t.Fatalf("want the child to run as a uid of the default range, got %s", res.Value)
	}
	s := newSupervisor(t, nil)
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatalf("an unprivileged child should still run scripts: %v", err)
	}
}

// Layer 6 leaves nothing behind: 200 executions, then Close, and no
// cgroup directory of this supervisor remains.
func TestCgroupsCleanedUp(t *testing.T) {
	requireCgroups(t)
	s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, PoolSize: 2, Cgroups: supervisor.CgroupsRequired, QueueTimeout: testutil.Timeout(), StartTimeout: testutil.Timeout()})
	if err != nil {
		t.Fatal(err)
	}
	n := 200
	if testing.Short() {
		n = 40
	}
	for i := 0; i < n; i++ {
		if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	dirs := ownWardenCgroups(t)
	if len(dirs) == 0 {
		t.Fatal("expected this supervisor's cgroup while it runs")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil {
			t.Fatalf("cgroup %s left behind", d)
		}
	}
}

// ownWardenCgroups lists this process's warden-<pid> groups.
func ownWardenCgroups(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		root, dir := "/sys/fs/cgroup/"+f[1], f[2]
		if f[1] == "" {
			// v2: the unified hierarchy of a hybrid host, or the whole
			// hierarchy; on v2 the supervisor has moved itself into a
			// leaf beside its groups.
			root = "/sys/fs/cgroup"
			if _, err := os.Stat("/sys/fs/cgroup/unified"); err == nil {
				root = "/sys/fs/cgroup/unified"
			}
			if filepath.Base(dir) == "supervisor" {
				dir = filepath.Dir(dir)
			}
		}
		matches, _ := filepath.Glob(filepath.Join(root, dir, cgroup.GroupName(os.Getpid())+"*"))
		out = append(out, matches...)
	}
	return out
}

//go:build wardenfaults

package tests

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// rlimits runs the "rlimits" fault and returns the child's soft and hard
// RLIMIT_DATA, RLIMIT_CPU and RLIMIT_NPROC (math.MaxUint64: none).
func rlimits(t *testing.T, s *supervisor.Supervisor) map[string][2]uint64 {
	t.Helper()
	res := fault(t, s, "rlimits", "")
	if !res.OK {
		t.Fatalf("rlimits fault: %+v", res.Error)
	}
	v, err := strconv.Unquote(string(res.Value))
	if err != nil {
		t.Fatalf("rlimits fault: %s", res.Value)
	}
	out := map[string][2]uint64{}
	for i, f := range strings.Fields(v) {
		cur, max, _ := strings.Cut(f, "/")
		c, err1 := strconv.ParseUint(cur, 10, 64)
		m, err2 := strconv.ParseUint(max, 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("rlimits fault: %s", v)
		}
		out[[]string{"data", "cpu", "nproc"}[i]] = [2]uint64{c, m}
	}
	return out
}

// Without cgroups nothing in the kernel counts a child's CPU time or
// tasks, so the fallback gives it RLIMIT_CPU (the caps' longest
// execution plus its start-up budget and a few seconds) and RLIMIT_NPROC
// (the pids cap), besides RLIMIT_DATA. With cgroups it gets neither.
func TestLayerFallbackRlimits(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.Cgroups = supervisor.CgroupsOff
		c.NoSeccomp = true // getrlimit is not on the allow-list
		c.PidsMax = 48
		c.StartTimeout = 5 * time.Second
		c.Caps = contract.DefaultCaps
		c.Caps.Timeout = 20 * time.Second
	})
	l := rlimits(t, s)
	t.Logf("fallback child: RLIMIT_DATA %v, RLIMIT_CPU %v, RLIMIT_NPROC %v", l["data"], l["cpu"], l["nproc"])
	cpu := l["cpu"]
	if cpu[0] != cpu[1] || cpu[0] < 25 || cpu[0] > 30 {
		t.Errorf("RLIMIT_CPU = %v, want soft = hard, 25 s (20 s timeout cap + 5 s start-up) plus a few seconds", cpu)
	}
	if l["nproc"] != [2]uint64{48, 48} {
		t.Errorf("RLIMIT_NPROC = %v, want the pids cap, 48", l["nproc"])
	}
	if l["data"][0] == 1<<64-1 {
		t.Errorf("RLIMIT_DATA not set")
	}

	if !cgroup.Detect().Usable() {
		t.Log("no cgroups here: skipping the check that cgroup children get no fallback rlimits")
		return
	}
	s = newSupervisor(t, func(c *supervisor.Config) { c.Cgroups = supervisor.CgroupsRequired; c.NoSeccomp = true })
	if l := rlimits(t, s); l["cpu"][0] != 1<<64-1 || l["data"][0] != 1<<64-1 {
		t.Errorf("a child with a cgroup got the fallback's rlimits: %v", l)
	}
}

// RLIMIT_CPU holds on its own: a child whose Go side spins, deaf to its
// deadline, with the supervisor's kill pushed an hour away, is killed by
// the kernel once its CPU time reaches the limit (the timeout cap of 1 s
// plus a 3 s start-up budget and the slack).
func TestLayerRlimitCPUKillsRunaway(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) {
		c.Cgroups = supervisor.CgroupsOff
		c.NoSeccomp = true
		c.KillGrace = time.Hour // no kill from the supervisor
		c.StartTimeout = 3 * time.Second
		c.Caps = contract.DefaultCaps
		c.Caps.Timeout = time.Second
	})
	// Cancelled, not timed out, so that it is told from the execution's
	// own TimeoutError.
	ctx, cancel := context.WithCancel(context.Background())
	defer time.AfterFunc(90*time.Second, cancel).Stop()
	start := time.Now()
	res, err := s.Execute(ctx, contract.Request{Code: "//fault:burn"}, nil)
	if errors.Is(err, contract.ErrAbort) {
		t.Fatalf("the spinning child was still alive after %v", time.Since(start))
	}
	if res.OK || res.Error.Type != contract.SandboxError {
		t.Fatalf("want SandboxError (the child died of RLIMIT_CPU), got %+v", res.Error)
	}
	if k := s.Stats().Kills; k != 0 {
		t.Fatalf("the supervisor killed %d children; the kill was meant to be off", k)
	}
	// The kernel's account of the reaped child: it died at its limit
	// (7 s). The limit is checked against tick-sampled CPU time, which
	// on a VM with steal time runs ahead of the precise time wait4
	// reports (5.9 s seen under load), so the lower bound only says the
	// child ran far past its 1 s timeout.
	if res.Stats.ChildCPUMS < 3000 || res.Stats.ChildCPUMS > 9000 {
		t.Fatalf("the child died after %.0f ms of CPU, want about 7 s", res.Stats.ChildCPUMS)
	}
	t.Logf("killed after %v wall, %.0f ms CPU: %s", time.Since(start).Round(time.Millisecond), res.Stats.ChildCPUMS, res.Error.Message)
	requireServing(t, s)
}

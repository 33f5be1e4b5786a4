package supervisor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/ipc"
)

// The spawner's cgroup layer: one cgroup per child, capped at its memory
// cap (memory.go) and PidsMax, or, where the machine has no cgroup
// layer, rlimits in the child that stand in for the caps.

// cgroupManager is the part of the cgroup layer the supervisor uses.
type cgroupManager interface {
	Create(name string, memoryBytes, pidsMax int64) (cgroupGroup, error)
	Mode() string
	Close() error
}

// cgroupGroup is one child's cgroup.
type cgroupGroup interface {
	AddProc(pid int) error
	CgroupFD() (int, bool)
	OOMKills() (uint64, error)
	PeakBytes() (uint64, error)
	Delete() error
}

// cgroupAdapter adapts *cgroup.Manager to cgroupManager.
type cgroupAdapter struct{ m *cgroup.Manager }

func (a cgroupAdapter) Create(name string, memoryBytes, pidsMax int64) (cgroupGroup, error) {
	return a.m.Create(name, cgroup.Limits{MemoryBytes: memoryBytes, PidsMax: pidsMax})
}
func (a cgroupAdapter) Mode() string { return a.m.Mode() }
func (a cgroupAdapter) Close() error { return a.m.Close() }

// startCgroups sets up the cgroup layer according to the policy. Without
// it the supervisor still runs, with RLIMIT_DATA, RLIMIT_CPU and
// RLIMIT_NPROC on each child, and says so once.
func (sp *processSpawner) startCgroups() error {
	if sp.cfg.Cgroups == CgroupsOff {
		sp.cgroupNote = "disabled by configuration"
		return nil
	}
	m, err := cgroup.New(context.Background(), cgroup.Config{Parent: sp.cfg.CgroupParent, Logger: sp.log.With("component", "cgroup")})
	if err == nil && m.Mode() == cgroup.ModeNone {
		err = errors.Join(cgroup.ErrUnavailable, m.Close())
	}
	if err != nil {
		if sp.cfg.Cgroups == CgroupsRequired {
			return fmt.Errorf("supervisor: cgroups required: %w", err)
		}
		sp.cgroupNote = err.Error()
		sp.log.Warn("cgroup layer missing: children get RLIMIT_DATA, RLIMIT_CPU and RLIMIT_NPROC caps instead", "reason", err)
		return nil
	}
	sp.cgroups = cgroupAdapter{m}
	return nil
}

func (sp *processSpawner) closeCgroups() error {
	if sp.cgroups == nil {
		return nil
	}
	return sp.cgroups.Close()
}

// makeCgroup creates the child's cgroup capped at memCap, and returns it
// with its cap. Without the cgroup layer it returns no group and puts
// the fallback rlimits into hc instead.
func (sp *processSpawner) makeCgroup(memCap int64, hc *ipc.Hardening) (cgroupGroup, int64, error) {
	if sp.cgroups == nil {
		sp.fallbackRlimits(memCap, hc)
		return nil, 0, nil
	}
	g, err := sp.cgroups.Create(fmt.Sprintf("child-%d", sp.spawnSeq.Add(1)), memCap, sp.cfg.PidsMax)
	if err != nil {
		return nil, 0, fmt.Errorf("supervisor: child cgroup: %w", err)
	}
	return g, memCap, nil
}

// fallbackRlimits puts into hc the rlimits that stand in for the cgroup
// layer's caps of a child capped at memCap.
func (sp *processSpawner) fallbackRlimits(memCap int64, hc *ipc.Hardening) {
	// No cgroup: the child caps its own data segment instead
	// (rlimitDataBytes says why it is coarser than a cgroup cap).
	hc.RlimitDataBytes = rlimitDataBytes(memCap)
	// Nothing in the kernel counts the child's CPU or tasks either:
	// RLIMIT_CPU kills a child that outlives the supervisor's SIGKILL
	// timer, and RLIMIT_NPROC stands in for the pids cap. The kernel
	// counts RLIMIT_NPROC over every task of the child's real uid, so
	// it caps one child only when each child has a uid of its own;
	// children sharing a uid share the budget.
	hc.RlimitCPUSeconds = rlimitCPUSeconds(sp.cfg.Caps.Timeout, sp.cfg.StartTimeout)
	hc.RlimitNProc = sp.cfg.PidsMax
}

// rlimitCPUSeconds is a child's CPU budget for its whole life, in whole
// seconds: its start-up (bounded by the start-up budget), the longest
// execution the caps allow, and rlimitCPUSlack for the supervisor's kill
// grace and what an idle child spends (keep-warm, gRPC). A child with
// one P spends CPU about as fast as wall time passes, so a child the
// supervisor's timer misses dies about this much after it was started.
func rlimitCPUSeconds(timeoutCap, startTimeout time.Duration) int64 {
	return int64(math.Ceil((timeoutCap + startTimeout).Seconds())) + rlimitCPUSlack
}

// rlimitCPUSlack is the seconds RLIMIT_CPU allows beyond start-up and
// the longest execution: the kill grace, and keep-warm's CPU over an
// idle child's maximum age at their defaults (about 1 s in 5 minutes).
const rlimitCPUSlack = 3

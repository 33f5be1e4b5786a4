package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/ipc"
	"github.com/wardenhq/warden/pool"
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
	Reset() error
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
	// As many as children may be alive: the pool resolves MaxChildren's
	// default itself, later.
	keep := sp.cfg.MaxChildren
	if keep == 0 {
		keep = pool.DefaultMaxChildren(sp.cfg.PoolSize, 1)
	}
	ttl := sp.cfg.ProfileIdleTTL
	if ttl <= 0 {
		ttl = pool.DefaultIdleTTL
	}
	sp.groups = newGroupCache(keep, ttl, sp.log.With("component", "cgroup"))
	return nil
}

func (sp *processSpawner) closeCgroups() error {
	if sp.cgroups == nil {
		return nil
	}
	sp.groups.close()
	return sp.cgroups.Close()
}

// groupCache keeps the cgroups of children that are gone, emptied and
// reset (cgroup.Group.Reset), for the next child of the same memory cap:
// creating and removing a group per child cost the supervisor about
// 0.8 ms of CPU (RATIONALE.md, "Cgroups reused, not made per child"). A
// group that cannot be reset is removed, as every group was before, and
// so is one no child took within ttl: a profile's groups go with it.
type groupCache struct {
	mu     sync.Mutex
	free   map[int64][]keptGroup
	kept   int
	max    int // groups kept at most, across caps
	ttl    time.Duration
	sweep  *time.Timer // pending while groups are kept
	closed bool
	log    *slog.Logger
	// reused and removed count what recycle did, for the tests.
	reused, removed atomic.Int64
}

// keptGroup is a reset group and when it was kept.
type keptGroup struct {
	g     cgroupGroup
	since time.Time
}

func newGroupCache(max int, ttl time.Duration, log *slog.Logger) *groupCache {
	return &groupCache{free: map[int64][]keptGroup{}, max: max, ttl: ttl, log: log}
}

// take returns a reset group capped at memCap, or nil.
func (c *groupCache) take(memCap int64) cgroupGroup {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	gs := c.free[memCap]
	if len(gs) == 0 {
		return nil
	}
	k := gs[len(gs)-1]
	c.free[memCap] = gs[:len(gs)-1]
	c.kept--
	c.reused.Add(1)
	return k.g
}

// recycle resets g, the group of a reaped child capped at memCap, and
// keeps it for the next child; a group that cannot be reset, or one more
// than the cache keeps, is deleted.
func (c *groupCache) recycle(memCap int64, g cgroupGroup) {
	if c == nil {
		g.Delete()
		return
	}
	c.mu.Lock()
	room := !c.closed && c.kept < c.max
	if room {
		c.kept++ // held for g while it is reset
	}
	c.mu.Unlock()
	var err error
	if room {
		err = g.Reset()
	}
	c.mu.Lock()
	keep := room && err == nil && !c.closed
	if keep {
		c.free[memCap] = append(c.free[memCap], keptGroup{g, time.Now()})
		if c.sweep == nil {
			c.sweep = time.AfterFunc(c.ttl, c.expire)
		}
	} else if room {
		c.kept--
	}
	if errors.Is(err, cgroup.ErrResetUnsupported) {
		c.max = 0 // none will reset: stop trying
	}
	c.mu.Unlock()
	if keep {
		return
	}
	if errors.Is(err, cgroup.ErrResetUnsupported) {
		c.log.Info("child cgroups are removed, not reused", "reason", err)
	} else if err != nil {
		c.log.Debug("child cgroup not reset, removed", "err", err)
	}
	c.removed.Add(1)
	g.Delete()
}

// expire deletes the groups kept for ttl or longer, and comes back for
// the rest.
func (c *groupCache) expire() {
	var old []cgroupGroup
	c.mu.Lock()
	c.sweep = nil
	now, next := time.Now(), time.Duration(0)
	for memCap, gs := range c.free {
		fresh := gs[:0]
		for _, k := range gs {
			if age := now.Sub(k.since); age >= c.ttl {
				old = append(old, k.g)
			} else {
				fresh = append(fresh, k)
				if left := c.ttl - age; next == 0 || left < next {
					next = left
				}
			}
		}
		c.free[memCap] = fresh
	}
	c.kept -= len(old)
	if next > 0 && !c.closed {
		c.sweep = time.AfterFunc(next, c.expire)
	}
	c.mu.Unlock()
	for _, g := range old {
		c.removed.Add(1)
		g.Delete()
	}
}

// close deletes the groups kept; recycle deletes what it gets after.
func (c *groupCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closed = true
	free := c.free
	c.free, c.kept = map[int64][]keptGroup{}, 0
	if c.sweep != nil {
		c.sweep.Stop()
	}
	c.mu.Unlock()
	for _, gs := range free {
		for _, k := range gs {
			k.g.Delete()
		}
	}
}

// makeCgroup creates the child's cgroup capped at memCap, and returns it
// with its cap. Without the cgroup layer it returns no group and puts
// the fallback rlimits into hc instead.
func (sp *processSpawner) makeCgroup(memCap int64, hc *ipc.Hardening) (cgroupGroup, int64, error) {
	if sp.cgroups == nil {
		sp.fallbackRlimits(memCap, hc)
		return nil, 0, nil
	}
	if g := sp.groups.take(memCap); g != nil {
		return g, memCap, nil
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

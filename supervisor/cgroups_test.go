package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// fakeGroup records what the group cache does to a group.
type fakeGroup struct {
	resetErr        error
	resets, deletes int
	deleted         atomic.Int32 // deletes, for a Delete on the sweep's goroutine
}

func (g *fakeGroup) AddProc(int) error          { return nil }
func (g *fakeGroup) CgroupFD() (int, bool)      { return -1, false }
func (g *fakeGroup) OOMKills() (uint64, error)  { return 0, nil }
func (g *fakeGroup) PeakBytes() (uint64, error) { return 0, nil }
func (g *fakeGroup) Reset() error               { g.resets++; return g.resetErr }
func (g *fakeGroup) Delete() error              { g.deletes++; g.deleted.Add(1); return nil }

// TestGroupCache: a reaped child's group is reset and handed to the next
// child of the same cap; one that cannot be reset, or one more than the
// cache keeps, is deleted, and Close deletes what is kept.
func TestGroupCache(t *testing.T) {
	c := newGroupCache(2, time.Hour, slog.New(slog.DiscardHandler))
	a, b, bad, extra := &fakeGroup{}, &fakeGroup{}, &fakeGroup{resetErr: errors.New("still charged")}, &fakeGroup{}
	c.recycle(64, a)
	c.recycle(64, bad)
	if bad.deletes != 1 || a.deletes != 0 {
		t.Fatalf("a group that cannot be reset must be deleted, one that can kept: %+v %+v", bad, a)
	}
	c.recycle(128, b)
	c.recycle(64, extra) // the cache keeps 2
	if extra.resets != 0 || extra.deletes != 1 {
		t.Fatalf("a group beyond the cache's size: %+v", extra)
	}
	if g := c.take(32); g != nil {
		t.Fatal("a group of another cap was handed out")
	}
	if g := c.take(64); g != a {
		t.Fatalf("take(64) = %v, want the reset group", g)
	}
	if g := c.take(64); g != nil {
		t.Fatal("one group handed out twice")
	}
	if c.reused.Load() != 1 || c.removed.Load() != 2 {
		t.Errorf("reused %d, removed %d", c.reused.Load(), c.removed.Load())
	}
	c.close()
	if b.deletes != 1 {
		t.Errorf("close left the kept group: %+v", b)
	}
	c.recycle(64, a) // after close: deleted, not kept
	if a.deletes != 1 || c.take(64) != nil {
		t.Errorf("a group recycled after close: %+v", a)
	}
	// A kernel that cannot reset any group: the cache stops trying.
	c = newGroupCache(2, time.Hour, slog.New(slog.DiscardHandler))
	old := &fakeGroup{resetErr: fmt.Errorf("%w: %w", cgroup.ErrNotReset, cgroup.ErrResetUnsupported)}
	next := &fakeGroup{}
	c.recycle(64, old)
	c.recycle(64, next)
	if old.deletes != 1 || next.resets != 0 || next.deletes != 1 {
		t.Errorf("after ErrResetUnsupported: %+v, %+v", old, next)
	}

	// A group no child takes within the TTL is removed.
	c = newGroupCache(2, 50*time.Millisecond, slog.New(slog.DiscardHandler))
	idle := &fakeGroup{}
	c.recycle(64, idle)
	time.Sleep(300 * time.Millisecond)
	c.mu.Lock()
	kept := c.kept
	c.mu.Unlock()
	if idle.deleted.Load() != 1 || c.take(64) != nil || kept != 0 {
		t.Errorf("a group kept past the TTL: deleted %d times, kept %d", idle.deleted.Load(), kept)
	}
	c.close()

	var none *groupCache // no cgroup layer
	none.recycle(64, extra)
	if extra.deletes != 2 || none.take(64) != nil {
		t.Errorf("without a cache groups are deleted: %+v", extra)
	}
}

// TestCgroupsReused: on real cgroups, a child's group goes to a later
// child once the first is reaped, with its peak reset: a trivial
// execution in the group an execution that filled 12 MiB used does not
// report that execution's peak.
func TestCgroupsReused(t *testing.T) {
	testutil.RequireRoot(t, "create cgroups")
	if r := cgroup.Detect(); r.Mode == cgroup.ModeNone || !r.Writable {
		t.Skipf("no usable cgroups here: %s", r.Reason)
	}
	s := newSup(t, func(c *Config) { c.Cgroups = CgroupsRequired; c.PoolSize = 1 })
	groups := s.spawner.(*processSpawner).groups
	run := func(code string) contract.Stats {
		t.Helper()
		res, err := s.Execute(context.Background(), contract.Request{Code: code}, nil)
		if err != nil || !res.OK {
			t.Fatalf("%s: %v %+v", code, err, res.Error)
		}
		time.Sleep(100 * time.Millisecond) // the child is reaped, its group recycled
		return res.Stats
	}
	filled := run("const a = []; for (let i = 0; i < 12; i++) a.push(new Uint8Array(1 << 20).fill(1)); return a.length")
	var peaks []int64
	for range 6 {
		peaks = append(peaks, run("return 1").CgroupPeakBytes)
	}
	t.Logf("peak %d MiB filled, then %v bytes; groups reused %d, removed %d", filled.CgroupPeakBytes>>20, peaks, groups.reused.Load(), groups.removed.Load())
	if groups.reused.Load() == 0 {
		if groups.removed.Load() > 0 {
			t.Skip("this kernel cannot reset a group: each was removed instead (logged above)")
		}
		t.Fatal("no group was reused in 7 executions")
	}
	for _, p := range peaks {
		if p <= 0 || p > filled.CgroupPeakBytes-6<<20 {
			t.Errorf("a trivial execution's peak %d is not below the 12 MiB execution's %d: the group's peak was not reset", p, filled.CgroupPeakBytes)
		}
	}
}

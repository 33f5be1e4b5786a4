package supervisor

import (
	"context"
	"errors"
	"fmt"
	"syscall"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/contract"
)

// DefaultMemoryOverhead is what a child needs beyond its wasm linear
// memory: the Go runtime, wazero's compiled code and the garbage of
// decoding the module at start-up. It covers the peak of a child that
// compiles the module, with room for the gRPC buffers of a large result
// (BENCHMARKS.md, "Memory overhead default").
const DefaultMemoryOverhead = 48 << 20

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

// childMemoryCap is the cgroup memory cap of a child prepared for memory
// bytes of QuickJS heap: its linear-memory cap plus the runtime overhead.
func childMemoryCap(memory, overhead int64) int64 {
	return contract.LinearMemoryCap(memory) + overhead
}

// ChildGoMemLimit is the GOMEMLIMIT of a child prepared for memory bytes
// of QuickJS heap, overhead being Config.MemoryOverheadBytes (resolved:
// DefaultMemoryOverhead when unset): its memory cap less the Go runtime's
// headroom (childRuntimeEnv). It tells a child's memory profile from
// outside the child; warden stress finds its fault victims by it.
func ChildGoMemLimit(memory, overhead int64) int64 {
	return childMemoryCap(memory, overhead) - goMemoryHeadroom
}

// startCgroups sets up the cgroup layer according to the policy. Without
// it the supervisor still runs, with RLIMIT_DATA, RLIMIT_CPU and
// RLIMIT_NPROC on each child, and says so once.
func (s *Supervisor) startCgroups() error {
	if s.cfg.Cgroups == CgroupsOff {
		s.cgroupNote = "disabled by configuration"
		return nil
	}
	m, err := cgroup.New(context.Background(), cgroup.Config{Parent: s.cfg.CgroupParent, Logger: s.log.With("component", "cgroup")})
	if err == nil && m.Mode() == cgroup.ModeNone {
		err = errors.Join(cgroup.ErrUnavailable, m.Close())
	}
	if err != nil {
		if s.cfg.Cgroups == CgroupsRequired {
			return fmt.Errorf("supervisor: cgroups required: %w", err)
		}
		s.cgroupNote = err.Error()
		s.log.Warn("cgroup layer missing: children get RLIMIT_DATA, RLIMIT_CPU and RLIMIT_NPROC caps instead", "reason", err)
		return nil
	}
	s.cgroups = cgroupAdapter{m}
	return nil
}

func (s *Supervisor) closeCgroups() error {
	if s.cgroups == nil {
		return nil
	}
	return s.cgroups.Close()
}

// Layers reports which process-level layers of defence are active: what
// the supervisor configures for its children, as it configures it.
type Layers struct {
	CgroupMode string // "v1", "v2" or "" when missing
	CgroupNote string // why it is missing
	// FallbackRlimits name the rlimits that stand in for the cgroup
	// layer's caps when it is missing (none with a cgroup layer).
	FallbackRlimits []string
	// ChildUIDBase and ChildUIDCount are the range each child's own uid
	// comes from (zero when children have none of their own).
	ChildUIDBase, ChildUIDCount int
	// UserNote says how children are made unprivileged, or that they
	// are not.
	UserNote string
	// Namespaces name the namespaces children get, of "network", "ipc",
	// "uts", "mount", "user", "pid" and "cgroup" (none with
	// Config.NoNamespaces).
	Namespaces []string
	// PIDNamespace and CgroupNamespace report whether children get
	// them, and PrivateProc whether they mount a /proc that shows only
	// their own PID namespace; NamespaceNote says why not.
	PIDNamespace, CgroupNamespace, PrivateProc bool
	NamespaceNote                              string
	// NoNewPrivs and NotDumpable report whether children set
	// PR_SET_NO_NEW_PRIVS and clear PR_SET_DUMPABLE.
	NoNewPrivs, NotDumpable bool
	// Seccomp reports whether children are asked to install the seccomp
	// filter (off with Config.NoSeccomp); whether the kernel can is
	// the child's to check (warden doctor asks child/seccomp).
	Seccomp bool
	// Rlimits reports whether children set their after-start-up rlimits
	// (no core files, no file writes, few descriptors; off with
	// Config.NoRlimits).
	Rlimits bool
}

// namespaceNames name the namespaces of clone flags, in Layers' order.
var namespaceNames = []struct {
	flag uintptr
	name string
}{
	{syscall.CLONE_NEWNET, "network"}, {syscall.CLONE_NEWIPC, "ipc"}, {syscall.CLONE_NEWUTS, "uts"},
	{syscall.CLONE_NEWNS, "mount"}, {syscall.CLONE_NEWUSER, "user"}, {syscall.CLONE_NEWPID, "pid"},
	{syscall.CLONE_NEWCGROUP, "cgroup"},
}

// Layers reports the supervisor's process-level layers, from the
// hardening every spawn asks its child for (childHardening).
func (s *Supervisor) Layers() Layers {
	hc := s.childHardening()
	l := Layers{CgroupNote: s.cgroupNote, UserNote: s.userNote, NamespaceNote: s.nsNote,
		PIDNamespace:    s.nsFlags&syscall.CLONE_NEWPID != 0,
		CgroupNamespace: s.nsFlags&syscall.CLONE_NEWCGROUP != 0,
		PrivateProc:     hc.PrivateProc,
		NoNewPrivs:      hc.NoNewPrivs,
		NotDumpable:     hc.NotDumpable,
		Seccomp:         hc.Seccomp,
		Rlimits:         hc.Rlimits,
	}
	for _, ns := range namespaceNames {
		if s.nsFlags&ns.flag != 0 {
			l.Namespaces = append(l.Namespaces, ns.name)
		}
	}
	if s.uids != nil {
		l.ChildUIDBase, l.ChildUIDCount = s.uids.base, s.uids.count
	}
	if s.cfg.NoNamespaces {
		l.NamespaceNote = "NoNamespaces: children get none"
	}
	if s.cgroups != nil {
		l.CgroupMode = s.cgroups.Mode()
	} else {
		// What a child of the default memory profile is given.
		s.fallbackRlimits(childMemoryCap(s.cfg.Defaults.MemoryBytes, s.cfg.MemoryOverheadBytes), &hc)
		for _, r := range []struct {
			name string
			v    int64
		}{{"RLIMIT_DATA", hc.RlimitDataBytes}, {"RLIMIT_CPU", hc.RlimitCPUSeconds}, {"RLIMIT_NPROC", hc.RlimitNProc}} {
			if r.v > 0 {
				l.FallbackRlimits = append(l.FallbackRlimits, r.name)
			}
		}
	}
	return l
}

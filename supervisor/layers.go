package supervisor

import (
	"github.com/wardenhq/warden/ipc"
)

// childHardening is the hardening every child is asked for, before its
// own uid and the no-cgroup fallback's rlimits (makeCgroup). Layers
// reports from it.
func (sp *processSpawner) childHardening() ipc.Hardening {
	hc := ipc.Hardening{NoNewPrivs: true, Rlimits: !sp.cfg.NoRlimits, Seccomp: !sp.cfg.NoSeccomp, NotDumpable: true}
	hc.PrivateProc = sp.privateProc()
	return hc
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
	{cloneNewNet, "network"}, {cloneNewIPC, "ipc"}, {cloneNewUTS, "uts"},
	{cloneNewNS, "mount"}, {cloneNewUser, "user"}, {cloneNewPID, "pid"},
	{cloneNewCgroup, "cgroup"},
}

// layers reports the process-level layers, from the hardening every
// spawn asks its child for (childHardening).
func (sp *processSpawner) layers() Layers {
	hc := sp.childHardening()
	l := Layers{CgroupNote: sp.cgroupNote, UserNote: sp.userNote, NamespaceNote: sp.nsNote,
		PIDNamespace:    sp.nsFlags&cloneNewPID != 0,
		CgroupNamespace: sp.nsFlags&cloneNewCgroup != 0,
		PrivateProc:     hc.PrivateProc,
		NoNewPrivs:      hc.NoNewPrivs,
		NotDumpable:     hc.NotDumpable,
		Seccomp:         hc.Seccomp,
		Rlimits:         hc.Rlimits,
	}
	for _, ns := range namespaceNames {
		if sp.nsFlags&ns.flag != 0 {
			l.Namespaces = append(l.Namespaces, ns.name)
		}
	}
	if sp.uids != nil {
		l.ChildUIDBase, l.ChildUIDCount = sp.uids.base, sp.uids.count
	}
	if sp.cfg.NoNamespaces {
		l.NamespaceNote = "NoNamespaces: children get none"
	}
	if sp.cgroups != nil {
		l.CgroupMode = sp.cgroups.Mode()
	} else {
		// What a child of the default memory profile is given.
		sp.fallbackRlimits(childMemoryCap(sp.cfg.Defaults.MemoryBytes, sp.cfg.MemoryOverheadBytes), &hc)
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

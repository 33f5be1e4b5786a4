package supervisor

import (
	"os"
	"slices"
	"testing"
)

// Layers reports what the supervisor asks of its children: a layer its
// configuration switches off is reported off, whatever the kernel offers.
func TestLayersFollowTheConfiguration(t *testing.T) {
	off := newSup(t, func(c *Config) {
		c.NoSeccomp, c.NoNamespaces, c.NoRlimits, c.Cgroups = true, true, true, CgroupsOff
	}).Layers()
	if off.Seccomp || off.Rlimits || off.CgroupMode != "" || len(off.Namespaces) != 0 ||
		off.PIDNamespace || off.CgroupNamespace || off.PrivateProc {
		t.Errorf("layers switched off reported on: %+v", off)
	}
	if off.CgroupNote == "" || off.NamespaceNote == "" {
		t.Errorf("layers switched off without a reason: %+v", off)
	}
	if want := []string{"RLIMIT_DATA", "RLIMIT_CPU", "RLIMIT_NPROC"}; !slices.Equal(off.FallbackRlimits, want) {
		t.Errorf("fallback rlimits %v, want %v", off.FallbackRlimits, want)
	}
	// Never switched off: every child sets them.
	if !off.NoNewPrivs || !off.NotDumpable {
		t.Errorf("no_new_privs or not-dumpable off: %+v", off)
	}

	on := newSup(t, nil).Layers()
	if !on.Seccomp || !on.Rlimits || !on.NoNewPrivs || !on.NotDumpable {
		t.Errorf("hardening asked for reported off: %+v", on)
	}
	for _, ns := range []string{"network", "ipc", "uts", "mount"} {
		if !slices.Contains(on.Namespaces, ns) {
			t.Errorf("children get no %s namespace: %v", ns, on.Namespaces)
		}
	}
	if slices.Contains(on.Namespaces, "user") == (os.Geteuid() == 0) {
		t.Errorf("user namespace %v as uid %d", on.Namespaces, os.Geteuid())
	}
	if on.PIDNamespace != slices.Contains(on.Namespaces, "pid") || on.CgroupNamespace != slices.Contains(on.Namespaces, "cgroup") {
		t.Errorf("PID and cgroup namespaces disagree with the names: %+v", on)
	}
	if (on.CgroupMode == "") != (len(on.FallbackRlimits) > 0) {
		t.Errorf("cgroup mode %q with fallback rlimits %v", on.CgroupMode, on.FallbackRlimits)
	}
}

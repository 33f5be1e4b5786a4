package main

import (
	"path/filepath"
	"testing"

	"github.com/wardenhq/warden/internal/testutil"
	"github.com/wardenhq/warden/supervisor"
)

// A layer switched off in the supervisor's configuration is MISSING in
// doctor's report: doctor reports what the supervisor gives its
// children, not what the kernel could give them.
func TestDoctorReportsLayersSwitchedOff(t *testing.T) {
	checks := doctorChecks(supervisor.Config{
		PoolSize: 1, CacheDir: filepath.Join(testutil.TempPublicDir(t), "cache"),
		NoSeccomp: true, NoNamespaces: true, Cgroups: supervisor.CgroupsOff,
	})
	got := map[string]layerCheck{}
	for _, c := range checks {
		got[c.Layer] = c
	}
	for _, layer := range []string{
		"5 seccomp filter",
		"5 network namespace", "5 ipc namespace", "5 uts namespace", "5 mount namespace",
		"5 pid namespace", "5 cgroup namespace",
		"6 cgroup",
	} {
		c, ok := got[layer]
		switch {
		case !ok:
			t.Errorf("%s: no such line in %+v", layer, checks)
		case c.Active:
			t.Errorf("%s: active (%s); the supervisor switched it off", layer, c.Detail)
		case c.Detail == "":
			t.Errorf("%s: MISSING without a reason", layer)
		}
	}
	// The execution still runs: the layers off are reported, not fatal.
	if c := got["4-5 process per execution"]; !c.Active {
		t.Errorf("no child ran: %s", c.Detail)
	}
}

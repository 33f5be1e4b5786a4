package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wardenhq/warden/internal/testkit/testutil"
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
	if c := got["5 process per execution"]; !c.Active {
		t.Errorf("no child ran: %s", c.Detail)
	}
	// Where the children's module and Intl data come from: this test
	// binary embeds both (make's generated files).
	if c := got["5 compilation cache"]; !strings.Contains(c.Detail, "QuickJS module embedded in the binary; Intl data embedded") {
		t.Errorf("the cache line should say the module and the Intl data are embedded: %s", c.Detail)
	}
	// Every layer from 1 to 7 has a line, and the lines are in layer
	// order (the process line came before layer 4 when it was "4-5").
	last := 0
	for _, c := range checks {
		n := layerNumber(c.Layer)
		if n < last || n > last+1 {
			t.Errorf("%q after layer %d: the layers are not in order (or one is missing)", c.Layer, last)
		}
		last = n
	}
	if last != 7 {
		t.Errorf("the last layer is %d, want 7", last)
	}
}

// With every layer on, doctor checks the supervisor's word against what
// /proc shows of a live child.
func TestDoctorConfirmsInALiveChild(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: needs root; a non-root supervisor's children have user namespaces of their own, where /proc does not tell whether they are dumpable")
	}
	checks := doctorChecks(supervisor.Config{PoolSize: 1, CacheDir: filepath.Join(testutil.TempPublicDir(t), "cache")})
	confirmable := []string{"5 seccomp filter", "5 no_new_privs", "5 rlimits", "5 not dumpable",
		"5 network namespace", "5 ipc namespace", "5 uts namespace", "5 mount namespace", "5 pid namespace", "5 cgroup namespace"}
	for _, c := range checks {
		if !slices.Contains(confirmable, c.Layer) {
			continue
		}
		if !c.Active {
			if strings.Contains(c.Detail, "does not have it") {
				t.Errorf("%s: %s", c.Layer, c.Detail)
			} else {
				t.Logf("%s: MISSING here (%s)", c.Layer, c.Detail)
			}
			continue
		}
		if !strings.Contains(c.Detail, "seen in child") {
			t.Errorf("%s: active but not confirmed in a child: %s", c.Layer, c.Detail)
		}
	}
}

// A layer the supervisor asks for that a live child does not have is
// MISSING, whatever the supervisor says.
func TestDoctorTrustsTheChildOverTheSupervisor(t *testing.T) {
	checks := []layerCheck{
		{"5 seccomp filter", true, "every child installs it"},
		{"5 no_new_privs", true, "set in every child"},
		{"5 network namespace", true, "children get their own"},
		{"5 not dumpable", true, "PR_SET_DUMPABLE 0"},
	}
	seen := childSeen{pid: 42, noNewPrivs: true, ownNS: map[string]bool{"network": false}}
	confirmInChild(checks, seen, nil)
	want := map[string]bool{"5 seccomp filter": false, "5 no_new_privs": true, "5 network namespace": false, "5 not dumpable": true}
	for _, c := range checks {
		if c.Active != want[c.Layer] {
			t.Errorf("%s: active %v, want %v (%s)", c.Layer, c.Active, want[c.Layer], c.Detail)
		}
	}
	// Not dumpable stays as the supervisor says: a root child's /proc
	// does not tell.
	if strings.Contains(checks[3].Detail, "seen") {
		t.Errorf("not dumpable confirmed without evidence: %s", checks[3].Detail)
	}
	if checks[0].Active || !strings.Contains(checks[0].Detail, "child 42 does not have it") {
		t.Errorf("seccomp: %s", checks[0].Detail)
	}
}

// With --modules, doctor lists the registered modules with their sizes
// and digests, and the registry's cap.
func TestDoctorListsRegisteredModules(t *testing.T) {
	dir := testutil.TempPublicDir(t)
	mods := filepath.Join(dir, "modules")
	os.Mkdir(mods, 0o755)
	src := `export const answer = 42;`
	os.WriteFile(filepath.Join(mods, "answer.js"), []byte(src), 0o644)
	checks := doctorChecks(supervisor.Config{PoolSize: 1, CacheDir: filepath.Join(dir, "cache"), ModulesDir: mods})
	sum := sha256.Sum256([]byte(src))
	for _, c := range checks {
		if c.Layer == "1 registered modules" {
			if !strings.Contains(c.Detail, "1 modules") || !strings.Contains(c.Detail, "answer (1 KiB, sha256 "+hex.EncodeToString(sum[:])[:12]+")") || !strings.Contains(c.Detail, "of the 16 MiB allowed") {
				t.Fatalf("detail: %s", c.Detail)
			}
			return
		}
	}
	t.Fatal("no registered modules line")
}

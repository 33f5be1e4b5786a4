// Package guest holds the VM lane's cgroup v2 tests: behaviour only a v2
// host has (memory.oom.group, cgroup.kill, CLONE_INTO_CGROUP, a swap cap
// of zero). They skip, saying why, anywhere but on a writable cgroup v2
// hierarchy as root; the VM lane (tests/vm) runs them in its guest, where
// a skip fails the check.
package guest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/cgroup"
	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// The test binary is also the child (the supervisor re-executes it) and
// the helper processes of the cgroup tests (helperEnv).
func TestMain(m *testing.M) {
	child.RunIfChild()
	if h := os.Getenv(helperEnv); h != "" {
		os.Exit(helper(h))
	}
	os.Exit(testutil.RunWithCacheDir(m, &cacheDir))
}

// cacheDir is the tests' shared compilation cache, made by TestMain.
var cacheDir string

// requireV2 skips unless this is a writable cgroup v2 host and we are root.
func requireV2(t *testing.T) {
	t.Helper()
	testutil.RequireRoot(t, "create cgroups")
	r := cgroup.Detect()
	if r.Mode != cgroup.ModeV2 || !r.Usable() {
		t.Skipf("skipping: needs a writable cgroup v2 hierarchy (the VM lane's guest); here: mode %s, %s", r.Mode, r.Reason)
	}
}

// groupDir finds the directory of the cgroup named name under the v2
// mount.
func groupDir(t *testing.T, name string) string {
	t.Helper()
	var found string
	filepath.WalkDir("/sys/fs/cgroup", func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == name && strings.Contains(p, "/warden-") {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no cgroup %q under /sys/fs/cgroup", name)
	}
	return found
}

// readFile is the trimmed content of a cgroup file.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// Package testutil holds what Warden's tests share: directories that
// children running as another uid can use, created only in the test
// process (never in a child re-executing the test binary) and removed
// when the tests end; skips that say why; waiting for a process to die;
// re-executing the test binary as a helper process; building the warden
// binary and waiting for a daemon process it runs to be ready.
//
// It imports no Warden package, so that every package's in-package tests
// can use it; helpers that construct a supervisor or a cgroup manager stay
// in the packages they test.
package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// PublicDir makes a directory under the temporary directory that other
// uids can search (os.MkdirTemp makes 0700, and the supervisor refuses a
// compilation cache its children cannot reach). The caller removes it.
func PublicDir(pattern string) (string, error) {
	d, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(d, 0o755); err != nil {
		os.RemoveAll(d)
		return "", err
	}
	return d, nil
}

// TempPublicDir is PublicDir for one test, removed when it ends.
func TempPublicDir(t testing.TB) string {
	t.Helper()
	d, err := PublicDir("warden-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// CacheDirEnv names a compilation cache every test binary shares
// instead of making its own. The VM lane sets it: under emulation,
// compiling QuickJS afresh in each test binary takes most of the
// supervisor's queue timeout.
const CacheDirEnv = "WARDEN_TEST_CACHE_DIR"

// TimeoutEnv, when set to a Go duration, is the queue and start-up
// timeout of the tests' supervisors (Timeout) instead of the defaults.
// The VM lane sets it: under emulation a child starts tens of times
// slower, and a few starting at once outlast the 5 s queue timeout.
const TimeoutEnv = "WARDEN_TEST_TIMEOUT"

// Timeout is TimeoutEnv's duration; 0 (the supervisor's defaults) when
// it is unset or not a duration.
func Timeout() time.Duration {
	d, _ := time.ParseDuration(os.Getenv(TimeoutEnv))
	return d
}

// RunWithCacheDir runs a test binary's tests with a compilation cache
// directory shared by them: it sets *dir, runs m (in a temporary
// directory of its own, as RunInTempDir), removes the cache and returns
// m's exit code. Call it from TestMain after child.RunIfChild, so that
// children never create one.
//
// With CacheDirEnv set, *dir is that directory instead, shared with
// other test binaries and left in place.
func RunWithCacheDir(m *testing.M, dir *string) int {
	return RunInTempDir(func() int {
		if shared := os.Getenv(CacheDirEnv); shared != "" {
			*dir = shared
			return m.Run()
		}
		// The cache is a directory below d, so that what the in-process
		// engine keeps beside it (DIR-in-process) goes when d goes.
		d, err := PublicDir("warden-cache")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(d)
		*dir = filepath.Join(d, "wazero")
		return m.Run()
	})
}

// RunInTempDir runs run (a TestMain's m.Run) with TMPDIR pointing at a
// fresh directory, searchable by the children's uids (which must reach
// the socket directories go-plugin makes there), and returns its exit
// code. Whatever the tests leave in it (a socket directory, a warden-*
// directory) is listed on stderr, removed, and fails the run with exit
// code 1: every test removes what it creates.
func RunInTempDir(run func() int) int {
	root, err := PublicDir("warden-tests")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(root)
	old, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", root)
	defer func() {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
	}()
	code := run()
	if left := Leftovers(root); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left %d entries in their temporary directory: %v\n", len(left), left)
		return 1
	}
	return code
}

// Leftovers lists the entries of dir (the names, sorted).
func Leftovers(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		out = append(out, filepath.Join(dir, e.Name()))
	}
	slices.Sort(out)
	return out
}

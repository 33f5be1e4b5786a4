// Package testutil holds what Warden's tests share: directories that
// children running as another uid can use, created only in the test
// process (never in a child re-executing the test binary) and removed
// when the tests end.
package testutil

import (
	"os"
	"testing"
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

// RunWithCacheDir runs a test binary's tests with a compilation cache
// directory shared by them: it sets *dir, runs m, removes the directory
// and returns m's exit code. Call it from TestMain after
// child.RunIfChild, so that children never create one.
func RunWithCacheDir(m *testing.M, dir *string) int {
	d, err := PublicDir("warden-cache")
	if err != nil {
		panic(err)
	}
	*dir = d
	defer os.RemoveAll(d)
	return m.Run()
}

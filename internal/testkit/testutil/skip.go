package testutil

import (
	"os"
	"os/exec"
	"testing"
)

// RequireRoot skips the test, saying why it needs root, unless the test
// runs as root.
func RequireRoot(tb testing.TB, why string) {
	tb.Helper()
	if os.Geteuid() != 0 {
		tb.Skipf("skipping: needs root to %s (running as uid %d)", why, os.Geteuid())
	}
}

// RequireCmd skips the test when a program it runs is missing.
func RequireCmd(tb testing.TB, name string) {
	tb.Helper()
	if _, err := exec.LookPath(name); err != nil {
		tb.Skipf("skipping: needs %s: %v", name, err)
	}
}

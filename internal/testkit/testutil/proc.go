package testutil

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/procfs"
)

// Gone reports whether pid is no longer a running process: it does not
// exist, or it is a zombie waiting to be reaped.
func Gone(pid int) bool { return procfs.Gone(pid) }

// WaitGone polls until pid is gone (see Gone) and reports whether it
// went within the timeout.
func WaitGone(pid int, within time.Duration) bool { return procfs.WaitGone(pid, within) }

// RequireGone fails the test unless pid is gone within the timeout.
func RequireGone(tb testing.TB, pid int, within time.Duration) {
	tb.Helper()
	if !WaitGone(pid, within) {
		tb.Fatalf("process %d still alive after %v", pid, within)
	}
}

// HelperCmd returns a command that re-executes the test binary running
// only TestHelperProcess (hashicorp/go-plugin's helper-process pattern),
// with env as its whole environment and args after "--" (HelperArgs).
// The package's TestHelperProcess checks a variable of env to know it
// runs as the helper, and returns at once otherwise.
func HelperCmd(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestHelperProcess$", "--"}, args...)...)
	cmd.Env = env
	return cmd
}

// HelperArgs returns the arguments HelperCmd put after "--".
func HelperArgs() []string {
	if i := slices.Index(os.Args, "--"); i >= 0 {
		return os.Args[i+1:]
	}
	return nil
}

// Closer is what CloseAtEnd closes: a supervisor.Supervisor, an engine.
type Closer interface {
	Close(ctx context.Context) error
}

// CloseAtEnd closes c when the test ends, giving it 10 s, and fails the
// test if closing fails. Tests that construct a supervisor use it so
// that no child, cgroup or socket directory outlives the test.
func CloseAtEnd(tb testing.TB, c Closer) {
	tb.Helper()
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Close(ctx); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
}

package ipc

import (
	"os"
	"testing"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestMain runs the tests in a temporary directory of their own, where
// go-plugin makes each child's socket directory, and fails the run if
// any is left. Helper children (started with an environment of their
// own) just run their helper.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" || os.Getenv(impostorEnv) != "" || os.Getenv(chownHelperEnv) != "" {
		os.Exit(m.Run())
	}
	os.Exit(testutil.RunInTempDir(m.Run))
}

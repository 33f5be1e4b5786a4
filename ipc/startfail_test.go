package ipc

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// startFailEnv makes the test binary a child that fails its start-up the
// way a real one does: a reason on stderr, then exit status 3, before
// any handshake.
const startFailEnv = "WARDEN_IPC_TEST_START_FAIL"

func init() {
	if os.Getenv(startFailEnv) == "1" {
		fmt.Fprintln(os.Stderr, `{"level":"ERROR","msg":"child start-up failed","error":"open /.cache/warden/wazero: permission denied"}`)
		os.Exit(3)
	}
}

// A child that dies before the handshake must be reported with its own
// reason (its stderr's tail and exit status) as a SandboxError, not with
// what go-plugin's handshake saw ("Unrecognized remote plugin message").
func TestStartFailureCarriesTheChildsReason(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := Start(ctx, ProcessConfig{Cmd: testutil.HelperCmd([]string{startFailEnv + "=1"}), StartTimeout: 30 * time.Second})
	if err == nil {
		p.Kill()
		t.Fatal("Start of a child that exits at once succeeded")
	}
	t.Logf("Start: %v", err)
	requireSandboxError(t, err, "open /.cache/warden/wazero: permission denied")
	requireSandboxError(t, err, "exit status 3")
	if strings.Contains(err.Error(), "Unrecognized remote plugin message") {
		t.Errorf("the error is still go-plugin's: %v", err)
	}
}

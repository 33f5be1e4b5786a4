//go:build linux

package supervisor

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardenhq/warden/ipc"
)

// TestNamespaceProbeStartsTheChildBinary: the probe needs nothing but
// the binary children run (no /bin/true): with it, children get the PID
// and cgroup namespaces; with a binary that cannot start, the note says
// why and children get only the base namespaces.
func TestNamespaceProbeStartsTheChildBinary(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("as non-root the probe also needs a user namespace; the VM lane's non-root checks cover that")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	flags, note := namespaceFlags(self, nil)
	if note != "" || flags&isolationNamespaces != isolationNamespaces {
		t.Errorf("with the child binary: flags %#x, note %q; want the PID and cgroup namespaces", flags, note)
	}
	missing := t.TempDir() + "/no-such-binary"
	flags, note = namespaceFlags(missing, nil)
	if flags&isolationNamespaces != 0 || flags&baseNamespaces != baseNamespaces || !strings.Contains(note, missing) {
		t.Errorf("with a missing binary: flags %#x, note %q; want the base namespaces and a note naming it", flags, note)
	}
}

// TestProbeChildExitsAtOnce: a child started with the probe configuration
// exits 0 without preparing anything, even when not killed.
func TestProbeChildExitsAtOnce(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env, err := ipc.ChildConfig{Probe: true}.Env()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append([]string{env}, ipc.ChildEnv()...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("probe child: %v, output %q; want exit 0 and nothing said", err, out)
	}
	t.Logf("probe child ran for %v", time.Since(start))
}

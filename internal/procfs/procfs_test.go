package procfs

import (
	"os"
	"os/exec"
	"testing"
)

func TestGone(t *testing.T) {
	if Gone(os.Getpid()) {
		t.Fatal("this process is reported gone")
	}
	cmd := exec.Command("/bin/true")
	if err := cmd.Start(); err != nil {
		t.Skip("skipping: cannot start /bin/true:", err)
	}
	pid := cmd.Process.Pid
	cmd.Wait()
	if !Gone(pid) {
		t.Fatalf("reaped process %d is not reported gone", pid)
	}
}

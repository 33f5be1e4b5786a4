package child

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// chrootHelperEnv makes the test binary TestChrootProcHelper's process.
const chrootHelperEnv = "WARDEN_CHILD_TEST_CHROOT_PROC"

// TestChrootProcHelper is not a test: started by TestPrivateProcInAChroot
// as pid 1 of new PID and mount namespaces, it makes a root that is not a
// mount point (a directory of a tmpfs on WARDEN_TEST_CHROOT_TOP, as a
// plain chroot's is a directory of the host's disk), mounts a proc on its /proc when asked, chroots
// into it and calls mountPrivateProc, printing what it got.
func TestChrootProcHelper(t *testing.T) {
	mode := os.Getenv(chrootHelperEnv)
	if mode == "" {
		return
	}
	fail := func(step string, err error) {
		os.Stdout.WriteString("setup " + step + ": " + err.Error() + "\n")
		unix.Exit(2)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		fail("private", err)
	}
	top := os.Getenv("WARDEN_TEST_CHROOT_TOP")
	if err := unix.Mount("tmpfs", top, "tmpfs", 0, ""); err != nil {
		fail("tmpfs", err)
	}
	root := filepath.Join(top, "root")
	if err := os.MkdirAll(filepath.Join(root, "proc"), 0o755); err != nil {
		fail("mkdir", err)
	}
	if mode == "proc-mounted" {
		if err := unix.Mount("proc", filepath.Join(root, "proc"), "proc", 0, ""); err != nil {
			fail("mount proc", err)
		}
	}
	if err := unix.Chroot(root); err != nil {
		fail("chroot", err)
	}
	if err := os.Chdir("/"); err != nil {
		fail("chdir", err)
	}
	if err := mountPrivateProc(); err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		unix.Exit(1)
	}
	self, err := os.Readlink("/proc/self")
	if err != nil {
		fail("readlink /proc/self", err)
	}
	os.Stdout.WriteString("ok /proc/self=" + self + "\n")
	unix.Exit(0)
}

// TestPrivateProcInAChroot: a child whose root is not a mount point (a
// plain chroot) still gets its private /proc when /proc is a mount
// point, and otherwise refuses with an error that says how to set the
// root up, instead of "make mounts private: invalid argument".
func TestPrivateProcInAChroot(t *testing.T) {
	testutil.RequireRoot(t, "chroot and mount in new namespaces")
	for _, tc := range []struct {
		mode, want string
	}{
		{"proc-mounted", "ok /proc/self=1\n"},
		{"no-proc-mount", "error: child: make mounts private: neither / nor /proc is a mount point (a chroot?)"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestChrootProcHelper$")
			cmd.Env = []string{chrootHelperEnv + "=" + tc.mode, "WARDEN_TEST_CHROOT_TOP=" + t.TempDir()}
			cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNS | syscall.CLONE_NEWPID, Pdeathsig: syscall.SIGKILL}
			out, _ := cmd.Output()
			if !strings.HasPrefix(string(out), tc.want) {
				t.Errorf("got %q, want it to start with %q", out, tc.want)
			}
		})
	}
}

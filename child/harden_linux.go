package child

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/pagemap"
	"github.com/wardenhq/warden/ipc"
)

// harden applies the child's self-hardening before anything untrusted
// runs. The order matters: /proc is mounted while the child is still
// root, /proc/self/pagemap is opened while the child still owns its
// /proc/self (a non-dumpable process's is root's, and pagemap is 0400),
// and the descriptor keeps working after.
func harden(o ipc.Hardening) error {
	if o.PrivateProc {
		if err := mountPrivateProc(); err != nil {
			return err
		}
	}
	// For the engine and keep-warm; failing costs only speed.
	pagemap.Open()
	if o.UID > 0 {
		if err := dropToUser(o.UID, o.GID); err != nil {
			return err
		}
	}
	if o.NotDumpable {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
			return fmt.Errorf("child: PR_SET_DUMPABLE: %w", err)
		}
	}
	// The no-cgroup fallback's rlimits: set before the module loads, so
	// start-up counts too, and once the child has its own uid, because
	// RLIMIT_NPROC counts every task of the real uid.
	for _, l := range []struct {
		name string
		res  int
		v    int64
	}{
		{"RLIMIT_DATA", unix.RLIMIT_DATA, o.RlimitDataBytes},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, o.RlimitCPUSeconds},
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, o.RlimitNProc},
	} {
		if l.v <= 0 {
			continue
		}
		if err := unix.Setrlimit(l.res, &unix.Rlimit{Cur: uint64(l.v), Max: uint64(l.v)}); err != nil {
			return fmt.Errorf("child: %s: %w", l.name, err)
		}
	}
	if o.NoNewPrivs {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("child: PR_SET_NO_NEW_PRIVS: %w", err)
		}
	}
	return nil
}

// mountPrivateProc mounts a proc of the child's own PID namespace on
// /proc, so that it lists no process but the child's. Mounts are made
// private first, so that the mount stays in the child's mount namespace
// instead of propagating to the host's /proc.
//
// In a plain chroot, "/" is not a mount point and cannot be made private
// (EINVAL). The new proc then lands on whatever mount holds /proc: if
// /proc is a mount point, making it private is enough; if it is not, the
// mount could propagate to the host through a parent this process cannot
// name, so the child refuses, saying how to set the root up.
func mountPrivateProc() error {
	if os.Getpid() != 1 {
		return fmt.Errorf("child: asked for a private /proc outside a PID namespace (pid %d)", os.Getpid())
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		if !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("child: make mounts private: %w", err)
		}
		if err2 := unix.Mount("", "/proc", "", unix.MS_REC|unix.MS_PRIVATE, ""); err2 != nil {
			return fmt.Errorf("child: make mounts private: neither / nor /proc is a mount point (a chroot?), so a private /proc could show in the host's mount table: bind-mount the root onto itself before chroot (mount --bind DIR DIR), or mount proc on DIR/proc, or start the supervisor with NoNamespaces: %w", err)
		}
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("child: mount /proc: %w", err)
	}
	return nil
}

// dropToUser switches every thread of the child from root to uid:gid,
// with no supplementary groups; the child keeps no capability. The
// syscall package's setters apply to all threads (x/sys/unix's would
// change only the calling one).
func dropToUser(uid, gid int) error {
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("child: setgroups: %w", err)
	}
	if err := syscall.Setresgid(gid, gid, gid); err != nil {
		return fmt.Errorf("child: setresgid %d: %w", gid, err)
	}
	if err := syscall.Setresuid(uid, uid, uid); err != nil {
		return fmt.Errorf("child: setresuid %d: %w", uid, err)
	}
	// Changing the uid cleared the parent-death signal the supervisor
	// asked for (Pdeathsig): set it again. The supervisor dying in
	// between is not detectable here (getppid is 0 in a PID namespace),
	// but a child whose supervisor is gone dies on its handshake's write
	// to the closed pipe.
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("child: PR_SET_PDEATHSIG: %w", err)
	}
	return nil
}

// SteadyRlimit is an rlimit a child sets once start-up is done.
type SteadyRlimit struct {
	Name      string // as in setrlimit(2): RLIMIT_CORE
	ProcLabel string // its row in /proc/PID/limits
	Value     uint64 // soft and hard
	resource  int
}

// SteadyRlimits are the rlimits every child with Hardening.Rlimits sets
// after start-up, which start-up itself would trip over (the
// compilation cache may be written, files are opened): no core dumps,
// no file writes, few descriptors. warden doctor checks a live child
// against them.
func SteadyRlimits() []SteadyRlimit {
	return []SteadyRlimit{
		{"RLIMIT_CORE", "Max core file size", 0, unix.RLIMIT_CORE},
		{"RLIMIT_FSIZE", "Max file size", 0, unix.RLIMIT_FSIZE},
		{"RLIMIT_NOFILE", "Max open files", 64, unix.RLIMIT_NOFILE},
	}
}

// hardenAfterStartup sets SteadyRlimits.
func hardenAfterStartup(o ipc.Hardening) error {
	if !o.Rlimits {
		return nil
	}
	for _, l := range SteadyRlimits() {
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: l.Value, Max: l.Value}); err != nil {
			return fmt.Errorf("child: %s: %w", l.Name, err)
		}
	}
	return nil
}

// rusage is the part of this process's getrusage the child reports.
type rusage struct {
	cpu    time.Duration // user + system
	faults int64         // minor + major page faults
	maxRSS int64         // bytes
}

// selfRusage is this process's resource use so far.
func selfRusage() (rusage, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return rusage{}, false
	}
	return rusage{
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		faults: ru.Minflt + ru.Majflt,
		maxRSS: ru.Maxrss * 1024,
	}, true
}

// selfCPUAndFaults is this process's CPU time and page faults so far
// (0, 0 if the kernel will not say).
func selfCPUAndFaults() (time.Duration, int64) {
	u, _ := selfRusage()
	return u.cpu, u.faults
}

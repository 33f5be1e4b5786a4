package supervisor

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// baseNamespaces every child gets: no network at all (a fresh network
// namespace has only a down loopback), its own IPC objects, hostname and
// mount table.
const baseNamespaces = syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS | syscall.CLONE_NEWNS

// isolationNamespaces are added where the kernel allows: in its own PID
// namespace a child is pid 1 and can name no process outside it (kill,
// ptrace, /proc/PID of another child or the supervisor have no target),
// and in its own cgroup namespace it sees its cgroup as the root.
const isolationNamespaces = syscall.CLONE_NEWPID | syscall.CLONE_NEWCGROUP

// namespaceFlags are the namespaces a child gets, and a note when the
// kernel refused the PID and cgroup namespaces (children then get the
// others). As root no user namespace is needed; without root a user
// namespace makes the others possible.
func namespaceFlags() (uintptr, string) {
	f := uintptr(baseNamespaces)
	if os.Geteuid() != 0 {
		f |= syscall.CLONE_NEWUSER
	}
	if err := probeNamespaces(f | isolationNamespaces); err != nil {
		return f, fmt.Sprintf("no PID and cgroup namespaces for children (%v): they can see, and a child without seccomp can signal, processes of their own uid", err)
	}
	return f | isolationNamespaces, ""
}

// probeNamespaces reports whether children can be started in the
// namespaces of flags. As root it unshares them on a thread of its own
// and mounts a proc there, as a child will (privateProc); the thread is
// then discarded with them. Without root (a user namespace cannot be
// unshared by a multi-threaded process) it starts /bin/true in them.
func probeNamespaces(flags uintptr) error {
	if flags&syscall.CLONE_NEWUSER != 0 {
		cmd := exec.Command("/bin/true")
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: flags}
		return cmd.Run()
	}
	errc := make(chan error, 1)
	go func() {
		// Never unlocked: the thread ends with this goroutine, and its
		// namespaces with it.
		runtime.LockOSThread()
		if err := syscall.Unshare(int(flags &^ (syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS))); err != nil {
			errc <- fmt.Errorf("unshare: %w", err)
			return
		}
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			errc <- fmt.Errorf("make mounts private: %w", err)
			return
		}
		if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
			errc <- fmt.Errorf("mount proc: %w", err)
			return
		}
		errc <- nil
	}()
	return <-errc
}

// privateProc reports whether a child mounts its own /proc, showing only
// its PID namespace: it starts as root in new mount and PID namespaces.
func (s *Supervisor) privateProc() bool {
	const need = syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	return os.Geteuid() == 0 && s.nsFlags&need == need && s.nsFlags&syscall.CLONE_NEWUSER == 0
}

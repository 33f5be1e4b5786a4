package supervisor

import "syscall"

// The namespaces a child may get, as clone flags. clone_other.go gives
// the same numbers elsewhere, where New refuses to start.
const (
	cloneNewNet    = syscall.CLONE_NEWNET
	cloneNewIPC    = syscall.CLONE_NEWIPC
	cloneNewUTS    = syscall.CLONE_NEWUTS
	cloneNewNS     = syscall.CLONE_NEWNS
	cloneNewUser   = syscall.CLONE_NEWUSER
	cloneNewPID    = syscall.CLONE_NEWPID
	cloneNewCgroup = syscall.CLONE_NEWCGROUP
)

// procAttr is what every process the supervisor starts gets: death with
// the supervisor (Pdeathsig), its own process group when setpgid (so
// that it is killed as one), and the namespaces of cloneflags.
func procAttr(setpgid bool, cloneflags uintptr) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: setpgid, Pdeathsig: syscall.SIGKILL, Cloneflags: cloneflags}
}

// startInCgroup makes the process start inside the cgroup of directory
// fd (cgroup v2's CLONE_INTO_CGROUP).
func startInCgroup(a *syscall.SysProcAttr, fd int) {
	a.UseCgroupFD = true
	a.CgroupFD = fd
}

// dupAbove duplicates fd, close-on-exec, onto the lowest free descriptor
// at or above min.
func dupAbove(fd uintptr, min int) (uintptr, error) {
	r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_DUPFD_CLOEXEC, uintptr(min))
	if errno != 0 {
		return 0, errno
	}
	return r, nil
}

package seccomp

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// preloadBeforeSeccomp runs, while files may still be opened, the lazy
// initialisations that would otherwise open one after the filter is in:
// the local time zone (/etc/localtime, loaded on the first formatted
// timestamp, e.g. hclog's first log record).
func preloadBeforeSeccomp() {
	_, _ = time.Now().Zone()
}

// prepared is the filter, built once by Prepare.
var prepared struct {
	once sync.Once
	prog []unix.SockFilter
	err  error
}

// installed is set once the filter is on. The seccomp system
// call is not on the allow-list, so a second install would kill the
// process; it returns nil instead.
var installed struct {
	sync.Mutex
	done bool
}

// Prepare builds the filter (it reads /proc/self/maps) and runs the lazy
// initialisations that would open files later. It takes most of Install's
// time, so a caller may run it at start-up, off the execution's path;
// Install runs it if no one did. The libc mapping and the pid it captures
// do not change afterwards.
func Prepare() error {
	prepared.once.Do(func() {
		libc, err := libcCode()
		if err != nil {
			prepared.err = fmt.Errorf("child: seccomp: %w", err)
			return
		}
		prepared.prog, prepared.err = filter(runtime.GOARCH, os.Getpid(), libc)
		preloadBeforeSeccomp()
	})
	return prepared.err
}

// Install installs the filter on every thread of the process. It must be
// called after start-up (engine loaded, VM initialised, gRPC connection
// up) and before untrusted code runs. It sets
// PR_SET_NO_NEW_PRIVS itself, on the thread that installs the filter:
// the attribute is per thread, and TSYNC requires it on the caller (it
// then copies it to every thread together with the filter).
//
// On an error nothing has been installed. A second call does nothing.
func Install() error {
	installed.Lock()
	defer installed.Unlock()
	if installed.done {
		return nil
	}
	if err := Prepare(); err != nil {
		return err
	}
	prog := prepared.prog

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("child: seccomp: PR_SET_NO_NEW_PRIVS: %w", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	r1, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if errno != 0 {
		return fmt.Errorf("child: seccomp: install filter: %w", errno)
	}
	if r1 != 0 {
		// TSYNC failed: r1 is the id of a thread that could not be
		// synchronised (it has a filter of its own). Nothing is installed.
		return fmt.Errorf("child: seccomp: thread %d could not be synchronised (TSYNC)", r1)
	}
	installed.done = true
	return nil
}

// Available reports, for `warden doctor`, whether this kernel can run
// Install: filters, SECCOMP_RET_KILL_PROCESS and SECCOMP_RET_ERRNO
// (Linux 4.14+, which implies TSYNC, Linux 3.17+), and a known syscall
// table for this architecture.
func Available() (bool, string) {
	if _, ok := archTables[runtime.GOARCH]; !ok {
		return false, fmt.Sprintf("no seccomp syscall table for %s", runtime.GOARCH)
	}
	mode, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0)
	if err != nil {
		return false, fmt.Sprintf("kernel without seccomp (prctl PR_GET_SECCOMP: %v)", err)
	}
	for _, action := range []struct {
		name string
		v    uint32
	}{{"SECCOMP_RET_KILL_PROCESS", unix.SECCOMP_RET_KILL_PROCESS}, {"SECCOMP_RET_ERRNO", unix.SECCOMP_RET_ERRNO}} {
		v := action.v
		_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_GET_ACTION_AVAIL, 0, uintptr(unsafe.Pointer(&v)))
		switch {
		case errno == 0:
		case errors.Is(errno, unix.ENOSYS):
			return false, "kernel without the seccomp system call (Linux < 3.17 or blocked by an outer sandbox)"
		case errors.Is(errno, unix.EINVAL):
			return false, fmt.Sprintf("kernel without seccomp filters or without %s (needs Linux 4.14+ with CONFIG_SECCOMP_FILTER)", action.name)
		default:
			return false, fmt.Sprintf("seccomp(SECCOMP_GET_ACTION_AVAIL, %s): %v", action.name, errno)
		}
	}
	state := "this process has no filter"
	switch mode {
	case unix.SECCOMP_MODE_FILTER:
		state = "this process already runs under a filter (ours stacks on it)"
	case unix.SECCOMP_MODE_STRICT:
		return false, "this process is in seccomp strict mode"
	}
	return true, fmt.Sprintf("seccomp filters with TSYNC and KILL_PROCESS supported (%s, %d-instruction allow-list of %d syscalls)", state, programLen(), len(allowed)+3)
}

func programLen() int {
	libc, _ := libcCode()
	p, err := filter(runtime.GOARCH, os.Getpid(), libc)
	if err != nil {
		return 0
	}
	return len(p)
}

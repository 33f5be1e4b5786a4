//go:build unix

package supervisor

import (
	"os"
	"syscall"
	"time"
)

// killGroupOf SIGKILLs the process group that pid leads.
func killGroupOf(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// kernelUsage is the CPU time and peak RSS the kernel counted for a
// reaped process (its ProcessState.SysUsage()).
func kernelUsage(sysUsage any) (cpu time.Duration, maxRSS int64, ok bool) {
	ru, ok := sysUsage.(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss * 1024, true
}

// killedBySeccomp reports whether a reaped process's wait status (its
// ProcessState.Sys()) says SIGSYS ended it: its seccomp filter killed it.
func killedBySeccomp(sys any) bool {
	ws, ok := sys.(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGSYS
}

// openNoFollow opens path for reading, refusing a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

//go:build unix

package ipc

import (
	"time"

	"golang.org/x/sys/unix"
)

// fdReadable waits up to d for fd (a pidfd: readable once its process
// exited) to become readable.
func fdReadable(fd int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d.Milliseconds()))
	return err == nil && n > 0
}

func closeFD(fd int) { unix.Close(fd) }

// usableDir reports whether this process may create entries in dir.
func usableDir(dir string) bool { return unix.Access(dir, unix.W_OK|unix.X_OK) == nil }

func killPID(pid int) { _ = unix.Kill(pid, unix.SIGKILL) }

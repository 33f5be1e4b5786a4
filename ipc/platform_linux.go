package ipc

// What ipc needs of Linux alone: pidfds, tmpfs detection and the peer
// credentials of a unix socket. platform_other.go lets the package build
// elsewhere (the supervisor refuses to start there).

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// pidfdOpen opens a pidfd of pid, which names the process even once its
// pid is reused.
func pidfdOpen(pid int) (int, error) { return unix.PidfdOpen(pid, 0) }

// isTmpfs reports whether dir is on a tmpfs.
func isTmpfs(dir string) bool {
	var st unix.Statfs_t
	return unix.Statfs(dir, &st) == nil && st.Type == unix.TMPFS_MAGIC
}

// checkPeer returns nil if the process at the other end of c (the one
// that created the listening socket) is pid.
func checkPeer(c syscall.Conn, pid int) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return fmt.Errorf("ipc: peer credentials: %w", err)
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return fmt.Errorf("ipc: peer credentials: %w", err)
	}
	if credErr != nil {
		return fmt.Errorf("ipc: peer credentials: %w", credErr)
	}
	if int(cred.Pid) != pid {
		return fmt.Errorf("%w: pid %d (uid %d), not the child, pid %d; refusing the connection", ErrPeerNotChild, cred.Pid, cred.Uid, pid)
	}
	return nil
}

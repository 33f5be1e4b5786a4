//go:build !linux

package ipc

import (
	"errors"
	"syscall"
)

// errNotLinux is what the Linux-only steps return elsewhere; the
// supervisor refuses to start off Linux before any of them runs.
var errNotLinux = errors.New("ipc: needs Linux")

func pidfdOpen(int) (int, error) { return -1, errNotLinux }

func isTmpfs(string) bool { return false }

func checkPeer(syscall.Conn, int) error { return errNotLinux }

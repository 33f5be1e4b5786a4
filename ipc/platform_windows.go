//go:build !unix

package ipc

import (
	"os"
	"time"
)

// Off unix the package only has to build (package supervisor refuses to
// start there); these never find a pidfd or a usable socket directory.

func fdReadable(int, time.Duration) bool { return false }

func closeFD(int) {}

func usableDir(string) bool { return false }

func killPID(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

//go:build !linux

package supervisor

import "syscall"

// Linux's clone flags and process attributes (clone_linux.go), so that
// the package builds elsewhere; New refuses to start there
// (ErrUnsupportedPlatform).
const (
	cloneNewNet    = 0x40000000
	cloneNewIPC    = 0x8000000
	cloneNewUTS    = 0x4000000
	cloneNewNS     = 0x20000
	cloneNewUser   = 0x10000000
	cloneNewPID    = 0x20000000
	cloneNewCgroup = 0x2000000
)

// procAttr and startInCgroup set nothing off Linux, where New refuses
// to start any process.
func procAttr(bool, uintptr) *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

func startInCgroup(*syscall.SysProcAttr, int) {}

func dupAbove(uintptr, int) (uintptr, error) { return 0, syscall.ENOSYS }

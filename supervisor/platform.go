package supervisor

import (
	"errors"
	"runtime"
)

// ErrUnsupportedPlatform is New's error on an operating system other than
// Linux: a child's isolation (namespaces, cgroups, seccomp, pidfds, the
// socket's peer credentials) is Linux's. The package builds everywhere,
// so that a program embedding it compiles on a developer's macOS or
// Windows machine; there, run executions against a daemon with package
// client, or in a Linux VM or container.
var ErrUnsupportedPlatform = errors.New("supervisor: sandboxed children need Linux (run warden serve there and use package client)")

// checkPlatform refuses an operating system the sandbox does not run on.
func checkPlatform() error {
	if runtime.GOOS != "linux" {
		return ErrUnsupportedPlatform
	}
	return nil
}

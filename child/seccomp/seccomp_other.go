//go:build !linux

package seccomp

import (
	"errors"
	"runtime"
)

// errNotLinux is every call's error off Linux: seccomp is Linux's. The
// package builds elsewhere so that what imports it does.
var errNotLinux = errors.New("seccomp: needs Linux (this is " + runtime.GOOS + ")")

// Prepare fails off Linux.
func Prepare() error { return errNotLinux }

// Install fails off Linux.
func Install() error { return errNotLinux }

// Available reports no seccomp off Linux.
func Available() (bool, string) { return false, errNotLinux.Error() }

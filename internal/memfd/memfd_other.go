//go:build !linux

package memfd

import (
	"fmt"
	"os"
)

var create = func(name string) (*os.File, error) {
	return nil, fmt.Errorf("%w: %s", ErrUnsupported, name)
}

func seal(*os.File) error { return ErrUnsupported }

// Check reports whether fd is a sealed memory file: never, here.
func Check(fd uintptr) error { return fmt.Errorf("%w: descriptor %d", ErrNotSealed, fd) }

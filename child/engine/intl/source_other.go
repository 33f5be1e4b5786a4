//go:build !unix

package intl

import (
	"io"
	"os"
)

// mapFile reads f whole where there is no mmap.
func mapFile(f *os.File) ([]byte, error) { return io.ReadAll(f) }

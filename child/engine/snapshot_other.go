//go:build !linux

package engine

import (
	"errors"
	"os"

	"github.com/tetratelabs/wazero/experimental"
)

// snapshotMemory: heap snapshots are mapped only on Linux (where
// children run); elsewhere restoring fails and NewVM must run init.
type snapshotMemory struct{ buf []byte }

func (m *snapshotMemory) Allocate(_, max uint64) experimental.LinearMemory {
	m.buf = make([]byte, max)
	return m
}

func (m *snapshotMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

func (m *snapshotMemory) Free() { m.buf = nil }

func (m *snapshotMemory) mapImage(*os.File, *snapshotHeader, bool) error {
	return errors.New("heap snapshots are mapped only on Linux")
}

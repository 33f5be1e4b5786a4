package engine

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// snapshotMemory backs a restored instance's linear memory
// (experimental.MemoryAllocator): its whole page cap reserved at once,
// so that growing never moves or copies it, and the snapshot's image
// mapped over it once instantiation is done.
type snapshotMemory struct {
	buf    []byte
	mapped bool
	err    error
}

// Allocate reserves max bytes of anonymous memory: pages cost nothing
// until touched.
func (m *snapshotMemory) Allocate(_, max uint64) experimental.LinearMemory {
	b, err := unix.Mmap(-1, 0, int(max), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE)
	if err != nil {
		// Allocate cannot fail: give wazero ordinary memory and let
		// mapImage report the error.
		m.err = fmt.Errorf("reserve %d bytes: %w", max, err)
		m.buf = make([]byte, max)
		return m
	}
	m.buf, m.mapped = b, true
	return m
}

// DiscardsDataSegments tells the patched wazero (build/wazero) that the
// data segments need not be written at instantiation: mapImage replaces
// the memory below and in the image. Stock wazero never asks.
func (m *snapshotMemory) DiscardsDataSegments() bool { return true }

// Reallocate grows within the reservation; past it, it fails (nil).
func (m *snapshotMemory) Reallocate(size uint64) []byte {
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size]
}

// Free unmaps the reservation, with the image in it.
func (m *snapshotMemory) Free() {
	if m.mapped {
		unix.Munmap(m.buf)
	}
	m.buf, m.mapped = nil, false
}

// mapImage replaces the memory below the image with fresh zero pages and
// maps the image from f, privately: writes copy the page, never reach
// the file. Whatever instantiation wrote (the data segments) is gone.
// populate makes every page of the image present, as peakStack needs,
// by reading one byte of each: the kernel maps the pages around a read
// fault (fault-around, 64 KiB) at once, so this takes a fault per 16
// pages where MAP_POPULATE, measured, counted one per page and cost more.
func (m *snapshotMemory) mapImage(f *os.File, h *snapshotHeader, populate bool) error {
	if m.err != nil {
		return m.err
	}
	end := int64(h.Pages) * wasmPage
	if end > int64(len(m.buf)) || os.Getpagesize() > wasmPage {
		return fmt.Errorf("%d bytes of memory do not fit a reservation of %d", end, len(m.buf))
	}
	base := unsafe.Pointer(&m.buf[0])
	if h.ImageStart > 0 {
		if _, err := unix.MmapPtr(-1, 0, base, uintptr(h.ImageStart), unix.PROT_READ|unix.PROT_WRITE,
			unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE|unix.MAP_FIXED); err != nil {
			return fmt.Errorf("zero pages below the image: %w", err)
		}
	}
	if _, err := unix.MmapPtr(int(f.Fd()), snapshotHeaderSize, unsafe.Add(base, h.ImageStart), uintptr(end-int64(h.ImageStart)),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED); err != nil {
		return fmt.Errorf("map the image: %w", err)
	}
	if populate {
		touchPages(m.buf[h.ImageStart:end])
	}
	return nil
}

// touchSink keeps touchPages's reads from being optimised away.
var touchSink byte

// touchPages reads one byte of every page of b.
func touchPages(b []byte) {
	var x byte
	for off := 0; off < len(b); off += os.Getpagesize() {
		x ^= b[off]
	}
	touchSink = x
}

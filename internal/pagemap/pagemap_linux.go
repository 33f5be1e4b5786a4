// Package pagemap reads /proc/self/pagemap: which of this process's pages
// are in memory, swapped out, or were never touched. The engine uses it to
// skip never-touched memory when it scans the shadow stack, and a child to
// list the pages it keeps warm. MapsRange parses the address ranges of
// /proc/self/maps, which both the child and its seccomp filter read.
//
// The file is opened once per process, by Open or the first read, and
// read later with pread alone: a child opens it before its seccomp filter
// forbids opening files.
package pagemap

import (
	"encoding/binary"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// Bits of a pagemap entry.
const (
	Present = 1 << 63
	Swapped = 1 << 62
	// FilePage: the page is a file's (or shared anonymous memory), not a
	// private copy; a written page of a private file mapping is not.
	FilePage = 1 << 61
)

var file = sync.OnceValue(func() *os.File {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil
	}
	return f
})

// Open opens the file now if it is not open yet, and reports whether it
// can be read (not without /proc, or in a non-dumpable process).
func Open() bool { return file() != nil }

// Entries returns the entries of n pages from the page at address
// first*pagesize on; ok is false when the kernel could not say.
func Entries(first, n uintptr) (entries []uint64, ok bool) {
	f := file()
	if f == nil || n == 0 {
		return nil, false
	}
	raw := make([]byte, 8*n)
	if got, err := unix.Pread(int(f.Fd()), raw, int64(first*8)); err != nil || got != len(raw) {
		return nil, false
	}
	entries = make([]uint64, n)
	for i := range entries {
		entries[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return entries, true
}

package engine

import (
	"encoding/binary"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pagemap is /proc/self/pagemap, opened once per process. It is opened
// when the first Engine is made, before a child installs its seccomp
// filter, and read later with pread alone. nil when it cannot be opened
// (no /proc, or a non-dumpable process): then every page is scanned.
var pagemap = sync.OnceValue(func() *os.File {
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return nil
	}
	return f
})

// untouchedPages reports, for each page of b (b starts page-aligned or
// not), whether the page was never touched: neither present in memory
// nor swapped out, so that it reads as zeros without being scanned.
// Reading such a page would fault it in (~12 µs a page on the VMs
// Warden was measured on), so skipping it is what keeps the shadow-stack
// scan cheap. ok is false when the kernel could not say.
func untouchedPages(b []byte) (untouched []bool, pageSize int, ok bool) {
	f := pagemap()
	if f == nil || len(b) == 0 {
		return nil, 0, false
	}
	pageSize = os.Getpagesize()
	start := uintptr(unsafe.Pointer(&b[0])) / uintptr(pageSize)
	end := (uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b)) + uintptr(pageSize) - 1) / uintptr(pageSize)
	entries := make([]byte, 8*(end-start))
	if n, err := unix.Pread(int(f.Fd()), entries, int64(start*8)); err != nil || n != len(entries) {
		return nil, 0, false
	}
	const present, swapped = 1 << 63, 1 << 62
	untouched = make([]bool, end-start)
	for i := range untouched {
		e := binary.LittleEndian.Uint64(entries[8*i:])
		untouched[i] = e&(present|swapped) == 0
	}
	return untouched, pageSize, true
}

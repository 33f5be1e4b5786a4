package engine

import (
	"os"
	"unsafe"

	"github.com/wardenhq/warden/internal/pagemap"
)

// untouchedPages reports, for each page of b (b starts page-aligned or
// not), whether the page was never touched: neither present in memory
// nor swapped out, so that it reads as zeros without being scanned.
// Reading such a page would fault it in (slow on the VMs Warden is
// measured on: BENCHMARKS.md), so skipping it is what keeps the
// shadow-stack scan cheap. ok is false when the kernel could not say.
func untouchedPages(b []byte) (untouched []bool, pageSize int, ok bool) {
	if len(b) == 0 {
		return nil, 0, false
	}
	pageSize = os.Getpagesize()
	start := uintptr(unsafe.Pointer(&b[0])) / uintptr(pageSize)
	end := (uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b)) + uintptr(pageSize) - 1) / uintptr(pageSize)
	entries, ok := pagemap.Entries(start, end-start)
	if !ok {
		return nil, 0, false
	}
	untouched = make([]bool, len(entries))
	for i, e := range entries {
		untouched[i] = e&(pagemap.Present|pagemap.Swapped) == 0
	}
	return untouched, pageSize, true
}

package engine

import (
	"encoding/binary"
	"unsafe"
)

// peakStack reports how deep the shadow stack went: the instance is
// fresh, so the stack region starts zeroed and the lowest non-zero byte
// below stackTop marks the deepest frame. This is how the host knows,
// from its own observation, that QuickJS hit its stack limit. Pages the
// kernel says were never touched are zero and are not read: in a fresh
// child most of the 1 MiB region is untouched, and reading it would
// fault every page in (BENCHMARKS.md, "Behind the comments").
func (vm *VM) peakStack() int64 {
	view, ok := vm.mod.Memory().Read(0, vm.stackTop)
	if !ok {
		return 0
	}
	return int64(len(view)) - int64(firstNonZero(view))
}

// firstNonZero is the index of the first non-zero byte of b, or len(b).
func firstNonZero(b []byte) int {
	untouched, pageSize, ok := untouchedPages(b)
	base := 0
	if ok {
		// b need not start on a page boundary: page k covers b from
		// k*pageSize-offset on.
		base = int(uintptr(unsafe.Pointer(&b[0])) % uintptr(pageSize))
	}
	i := 0
	for i < len(b) {
		if ok {
			page := (base + i) / pageSize
			if untouched[page] {
				i = (page+1)*pageSize - base
				continue
			}
		}
		// Scan to the end of this page (or of b), a word at a time.
		end := len(b)
		if ok {
			end = min(len(b), ((base+i)/pageSize+1)*pageSize-base)
		}
		for ; i+8 <= end; i += 8 {
			if binary.LittleEndian.Uint64(b[i:]) != 0 {
				break
			}
		}
		for ; i < end; i++ {
			if b[i] != 0 {
				return i
			}
		}
	}
	return len(b)
}

package child

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestKeepWarmReadsResidentPagesOnly: the page list holds the pages of a
// region that were touched and none that were not, a pass reads without
// faulting anything new in, and a region unmapped after the list was
// made is dropped by the pass instead of crashing the process.
func TestKeepWarmReadsResidentPagesOnly(t *testing.T) {
	ps := os.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 64*ps, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	touched := map[uintptr]bool{}
	base := uintptr(unsafe.Pointer(&mem[0]))
	for _, i := range []int{0, 3, 17, 40, 63} {
		mem[i*ps] = 1
		touched[base+uintptr(i*ps)] = true
	}
	pages, err := residentPages()
	if err != nil {
		t.Skipf("skipping: cannot list resident pages here: %v", err)
	}
	in := 0
	for _, p := range pages {
		if p >= base && p < base+uintptr(64*ps) {
			if !touched[p] {
				t.Errorf("page %#x listed although never touched", p)
			}
			in++
		}
	}
	if in != len(touched) {
		t.Fatalf("%d of the region's pages listed, want the %d touched", in, len(touched))
	}

	k := &keepWarm{pages: pages}
	_, before := selfCPUAndFaults()
	k.pass()
	_, after := selfCPUAndFaults()
	// Only resident pages are read; a handful of faults come from the
	// runtime itself (timers, the test's own stack).
	if after-before > 64 {
		t.Errorf("a pass over %d resident pages took %d page faults", len(pages), after-before)
	}
	if k.passes.Load() != 1 || k.dropped.Load() != 0 {
		t.Errorf("passes %d, dropped %d; want 1, 0", k.passes.Load(), k.dropped.Load())
	}

	if err := unix.Munmap(mem); err != nil {
		t.Fatal(err)
	}
	k.pass()
	if got := k.dropped.Load(); got != int64(len(touched)) {
		t.Errorf("after the region was unmapped, %d pages dropped, want %d", got, len(touched))
	}
	if len(k.pages) != len(pages)-len(touched) {
		t.Errorf("%d pages left, want %d", len(k.pages), len(pages)-len(touched))
	}
	k.Stop()
	k.pass() // returns at once
	if k.passes.Load() != 2 {
		t.Errorf("a pass ran after Stop")
	}
}

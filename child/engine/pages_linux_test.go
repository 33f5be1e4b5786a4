package engine

import (
	"math/rand/v2"
	"os"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/pagemap"
)

// naiveFirstNonZero is the scan firstNonZero must agree with.
func naiveFirstNonZero(b []byte) int {
	for i, c := range b {
		if c != 0 {
			return i
		}
	}
	return len(b)
}

// TestFirstNonZeroSkipsUntouchedPages checks the pagemap-assisted scan
// against a plain scan on fresh anonymous memory, where most pages were
// never touched, with the non-zero byte anywhere, on page boundaries and
// off them, in slices that do not start on a page boundary.
func TestFirstNonZeroSkipsUntouchedPages(t *testing.T) {
	if !pagemap.Open() {
		t.Skip("no readable /proc/self/pagemap: firstNonZero scans every page here, which the other tests cover")
	}
	ps := os.Getpagesize()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		mem, err := unix.Mmap(-1, 0, 64*ps, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
		if err != nil {
			t.Fatal(err)
		}
		// Touch some pages with zeros only (present but zero), and put
		// one non-zero byte somewhere (or nowhere).
		for k := rng.IntN(5); k > 0; k-- {
			mem[rng.IntN(len(mem))] = 0
		}
		switch trial % 4 {
		case 0: // none
		case 1:
			mem[rng.IntN(len(mem))] = byte(1 + rng.IntN(255))
		case 2: // last byte of a page
			mem[(1+rng.IntN(63))*ps-1] = 7
		case 3: // first byte of a page
			mem[rng.IntN(64)*ps] = 9
		}
		off := 0
		if trial%2 == 1 {
			off = 1 + rng.IntN(ps-1)
		}
		view := mem[off : len(mem)-rng.IntN(ps)]
		untouched, _, ok := untouchedPages(view)
		if !ok {
			t.Fatal("untouchedPages failed although pagemap is open")
		}
		n := 0
		for _, u := range untouched {
			if u {
				n++
			}
		}
		if trial == 0 && n < 50 {
			t.Errorf("only %d of %d fresh pages reported untouched", n, len(untouched))
		}
		if got, want := firstNonZero(view), naiveFirstNonZero(view); got != want {
			t.Fatalf("trial %d (offset %d): firstNonZero = %d, want %d", trial, off, got, want)
		}
		unix.Munmap(mem)
	}
}

//go:build !linux

package pagemap

// Bits of a pagemap entry.
const (
	Present = 1 << 63
	Swapped = 1 << 62
	// FilePage: the page is a file's (or shared anonymous memory), not a
	// private copy; a written page of a private file mapping is not.
	FilePage = 1 << 61
)

// Open reports false: there is no pagemap here.
func Open() bool { return false }

// Entries reports that the kernel cannot say.
func Entries(first, n uintptr) ([]uint64, bool) { return nil, false }

package pagemap

import (
	"strconv"
	"strings"
)

// MapsRange parses the "start-end" field of a /proc/self/maps line (the
// first), in bytes: the addresses the child keeps warm come from there,
// and so does libc's code, which the seccomp filter lets open files.
func MapsRange(field string) (start, end uint64, ok bool) {
	lo, hi, ok := strings.Cut(field, "-")
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	return start, end, ok && err1 == nil && err2 == nil && end > start
}

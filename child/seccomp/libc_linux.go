package seccomp

// glibc's code in this process: the one place openat is refused with
// EACCES rather than killed (doc.go).

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/wardenhq/warden/internal/pagemap"
)

// codeRange is a range [start, end) of executable addresses.
type codeRange struct{ start, end uint64 }

// libcCode returns the executable mappings of glibc in this process
// (none in a static binary), from /proc/self/maps.
func libcCode() ([]codeRange, error) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseLibcCode(f)
}

// isLibcName reports whether a mapped file's base name is libc's
// (libc.so.6, libc-2.31.so). A plain check, not a regexp: a package-level
// regexp is compiled in every child at start-up, used or not.
func isLibcName(base string) bool {
	rest, ok := strings.CutPrefix(base, "libc")
	return ok && (strings.HasPrefix(rest, ".so") || (len(rest) >= 2 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9'))
}

func parseLibcCode(f io.Reader) ([]codeRange, error) {
	var code []codeRange
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || len(fields[1]) < 3 || fields[1][2] != 'x' || !isLibcName(filepath.Base(fields[5])) {
			continue
		}
		start, end, ok := pagemap.MapsRange(fields[0])
		if !ok {
			return nil, fmt.Errorf("child: seccomp: bad line in /proc/self/maps: %q", sc.Text())
		}
		code = append(code, codeRange{start, end})
	}
	return code, sc.Err()
}

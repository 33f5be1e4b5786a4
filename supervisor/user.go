package supervisor

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// The unprivileged user children run as by default when the supervisor is
// root.
const nobody = 65534

// chooseChildUser resolves Config.ChildUID/ChildGID. It returns -1 for
// "the supervisor's own user", and a note when children will run as root
// although the supervisor could have dropped them.
func chooseChildUser(binary string, uid, gid int) (int, int, string) {
	switch {
	case uid < 0:
		return -1, -1, ""
	case uid > 0:
		if gid <= 0 {
			gid = uid
		}
		return uid, gid, ""
	case os.Geteuid() != 0:
		return -1, -1, "" // not root: children already are unprivileged
	}
	if !reachableBy(binary, nobody, nobody, false) {
		return -1, -1, fmt.Sprintf("%s is not executable by uid %d (a directory on its path or the file lacks the permission); install it where others can execute it, or set ChildUID", binary, nobody)
	}
	return nobody, nobody, ""
}

// reachableBy reports whether uid:gid can traverse every directory down to
// path and execute it (a file) or use it (a directory, when dir is set:
// missing directories count as reachable if their parent is).
func reachableBy(path string, uid, gid int, dir bool) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	// searchable reports whether p exists and uid:gid may search it
	// (execute permission).
	searchable := func(p string) (exists, ok bool) {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return false, false
		}
		switch {
		case int(st.Uid) == uid:
			return true, st.Mode&0o100 != 0
		case int(st.Gid) == gid:
			return true, st.Mode&0o010 != 0
		default:
			return true, st.Mode&0o001 != 0
		}
	}
	parts := []string{abs}
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		parts = append(parts, p)
		if p == "/" {
			break
		}
	}
	// From the root down to abs itself: each needs execute (search).
	for i := len(parts) - 1; i >= 0; i-- {
		exists, ok := searchable(parts[i])
		if !exists {
			return dir // the rest will be created, by root, for uid
		}
		if !ok {
			return false
		}
	}
	return true
}

//go:build unix

package supervisor

// The checks of the cache's place and contents (steps 2 and 4 of the
// trust chain in cache.go), which read owners and modes.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/wardenhq/warden/ipc"
)

// prepareCacheDir makes dir the cache directory, or refuses it: it
// returns dir made absolute with its parents' symbolic links resolved.
//
// Missing directories are created 0755 (they are the supervisor's own).
// Directories that exist are never changed: each from / down must be
// searchable by the children's uid:gid (uid -1: the supervisor's own),
// owned by root or the supervisor's uid, and not writable by group or
// others unless sticky (anyone who may write a parent could rename the
// cache away and put their own in its place). The cache dir itself
// must be a real directory (no symbolic link), owned by the supervisor's
// uid and not writable by group or others; so must everything in it
// (checkCacheTree).
func prepareCacheDir(dir string, uid, gid int) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("supervisor: cache dir: %w", err)
	}
	if err := mkdirOwn(filepath.Dir(abs)); err != nil {
		return "", err
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", fmt.Errorf("supervisor: cache dir: %w", err)
	}
	cache := filepath.Join(parent, filepath.Base(abs))
	// Every component of parent is now a real directory.
	for p := parent; ; p = filepath.Dir(p) {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			return "", fmt.Errorf("supervisor: cache dir: %s: %w", p, err)
		}
		if !searchable(&st, uid, gid) {
			return "", &CacheError{p, fmt.Sprintf("not searchable by the children's uid %d: make it searchable (chmod o+x) or set Config.CacheDir elsewhere", uid)}
		}
		// Whoever may write a parent may rename the cache away and put
		// their own in its place (the sticky bit stops all but its owner).
		if int(st.Uid) != 0 && int(st.Uid) != os.Geteuid() {
			return "", &CacheError{p, fmt.Sprintf("a parent owned by uid %d, neither root nor the supervisor's uid (its owner could replace the cache): set Config.CacheDir elsewhere", st.Uid)}
		}
		if st.Mode&0o022 != 0 && st.Mode&syscall.S_ISVTX == 0 {
			return "", &CacheError{p, fmt.Sprintf("a parent writable by group or others without the sticky bit (mode %o: they could replace the cache): set Config.CacheDir elsewhere", st.Mode&0o7777)}
		}
		if p == "/" {
			break
		}
	}
	if err := syscall.Mkdir(cache, 0o755); err == nil {
		// The umask may have taken bits children need.
		if err := os.Chmod(cache, 0o755); err != nil {
			return "", fmt.Errorf("supervisor: cache dir: %w", err)
		}
	} else if !errors.Is(err, syscall.EEXIST) {
		return "", fmt.Errorf("supervisor: create cache dir %s: %w", cache, err)
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(cache, &st); err != nil {
		return "", fmt.Errorf("supervisor: cache dir: %w", err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return "", &CacheError{cache, "not a directory (a symbolic link is refused too): set Config.CacheDir to a real directory"}
	}
	if err := ownedAndClosed(cache, &st); err != nil {
		return "", err
	}
	if !searchable(&st, uid, gid) {
		return "", &CacheError{cache, fmt.Sprintf("not searchable by the children's uid %d: chmod 0755 it", uid)}
	}
	if _, err := checkCacheTree(cache, false, false); err != nil {
		return "", err
	}
	return cache, nil
}

// mkdirOwn creates dir and its missing parents 0755. Directories that
// exist are left as they are.
func mkdirOwn(dir string) error {
	if _, err := os.Lstat(dir); err == nil || dir == "/" {
		return nil
	}
	if err := mkdirOwn(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return fmt.Errorf("supervisor: create cache dir parent: %w", err)
	}
	return os.Chmod(dir, 0o755)
}

// searchable reports whether uid:gid may search the directory st (uid
// -1: the supervisor's own user).
func searchable(st *syscall.Stat_t, uid, gid int) bool {
	if uid < 0 {
		uid, gid = os.Geteuid(), os.Getegid()
	}
	switch {
	case uid == 0:
		return true
	case int(st.Uid) == uid:
		return st.Mode&0o100 != 0
	case int(st.Gid) == gid:
		return st.Mode&0o010 != 0
	default:
		return st.Mode&0o001 != 0
	}
}

// ownedAndClosed refuses path (with stat st) unless the supervisor's uid
// owns it and neither group nor others may write it.
func ownedAndClosed(path string, st *syscall.Stat_t) error {
	if int(st.Uid) != os.Geteuid() {
		return &CacheError{path, fmt.Sprintf("owned by uid %d, not by the supervisor's uid %d: remove it (the supervisor recreates the cache) or set Config.CacheDir elsewhere", st.Uid, os.Geteuid())}
	}
	if st.Mode&0o022 != 0 {
		return &CacheError{path, fmt.Sprintf("writable by group or others (mode %o): remove it or chmod go-w", st.Mode&0o7777)}
	}
	return nil
}

// isTempEntry says name is a file being written, not an entry yet: a
// snapshot the compile child writes (.snapshot-*) or wazero's file cache
// (KEY.*.tmp), each renamed to its entry's name once whole. Such files
// are checked as any other but have no digest: no child reads them, and
// one that another supervisor is writing would differ from one reading
// to the next.
func isTempEntry(name string) bool {
	return strings.HasPrefix(name, ".snapshot-") || strings.HasSuffix(name, ".tmp")
}

// checkCacheTree checks every entry below cache: only directories and
// regular files, owned by the supervisor's uid, not writable by group or
// others. With fix it sets directories to 0755 and files to 0644 (wazero
// creates them 0700 and 0600, which children of another uid cannot
// read); with digest it returns each file's SHA-256, by path relative to
// cache. Each entry is opened without following symbolic links and
// checked through its descriptor, so a swap between the walk and the
// check is caught. An entry gone between the listing and its opening is
// no longer in the cache and is passed over: another supervisor sharing
// the directory renamed or removed its temporary file; temporary files
// get no digest (isTempEntry).
func checkCacheTree(cache string, fix, digest bool) (map[string]string, error) {
	sums := map[string]string{}
	err := filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path != cache && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return fmt.Errorf("supervisor: compilation cache: %w", err)
		}
		if path == cache {
			return nil
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return &CacheError{path, "neither a directory nor a regular file (symbolic links are refused): remove it"}
		}
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("supervisor: compilation cache: %w", err)
		}
		defer f.Close()
		var st syscall.Stat_t
		if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
			return fmt.Errorf("supervisor: compilation cache: %s: %w", path, err)
		}
		isDir := st.Mode&syscall.S_IFMT == syscall.S_IFDIR
		if isDir != d.IsDir() {
			return &CacheError{path, "changed type during the check"}
		}
		if err := ownedAndClosed(path, &st); err != nil {
			return err
		}
		if fix {
			mode := os.FileMode(0o644)
			if isDir {
				mode = 0o755
			}
			if err := f.Chmod(mode); err != nil {
				return fmt.Errorf("supervisor: compilation cache: %w", err)
			}
		}
		if digest && !isDir && !isTempEntry(d.Name()) {
			sum, err := ipc.CacheDigest(f)
			if err != nil {
				return fmt.Errorf("supervisor: compilation cache: %s: %w", path, err)
			}
			rel, _ := filepath.Rel(cache, path)
			sums[rel] = sum
		}
		return nil
	})
	return sums, err
}

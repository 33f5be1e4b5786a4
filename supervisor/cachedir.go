package supervisor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Where the compilation cache lives: Config.CacheDir, or a default that
// no other user can have created first. Whether the place is safe is the
// trust chain's first check (prepareCacheDir, cache.go).

// ErrNoCacheDir: Config.CacheDir is empty and there is no default.
var ErrNoCacheDir = errors.New("supervisor: no compilation cache directory")

// RootCacheDir is the default cache directory of a supervisor running as
// root: a system service's cache belongs under /var/cache, and root's
// $HOME (0700 /root, or unset under a service manager) is no place for
// files unprivileged children must read.
const RootCacheDir = "/var/cache/warden/wazero"

// DefaultCacheDir is where the compilation cache goes when Config.CacheDir
// is empty: $CACHE_DIRECTORY/wazero in a systemd unit with
// CacheDirectory= (the first, if it names several), else RootCacheDir as
// root, else $XDG_CACHE_HOME/warden/wazero or $HOME/.cache/warden/wazero
// (os.UserCacheDir). With none of these set (common under service
// managers) there is no default, and the error says what to set: never a
// predictable path under /tmp, where another user could create the
// directory first.
func DefaultCacheDir() (string, error) { return defaultCacheDir(os.Geteuid()) }

func defaultCacheDir(euid int) (string, error) {
	// systemd made this directory for the unit, owned by its user.
	if d, _, _ := strings.Cut(os.Getenv("CACHE_DIRECTORY"), ":"); filepath.IsAbs(d) {
		return filepath.Join(d, "wazero"), nil
	}
	if euid == 0 {
		return RootCacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: %v; set Config.CacheDir (warden: --cache-dir) to a directory of your own, set $XDG_CACHE_HOME or $HOME, or give a systemd unit CacheDirectory=", ErrNoCacheDir, err)
	}
	return filepath.Join(dir, "warden", "wazero"), nil
}

// resolveCacheDir resolves the compilation cache's directory and
// prepares it for children of uids (nil: children keep the supervisor's
// user).
func resolveCacheDir(cfg *Config, uids *uidRange) error {
	return resolveCacheDirAs(cfg, uids, os.Geteuid())
}

// resolveCacheDirAs is resolveCacheDir for a supervisor of euid.
func resolveCacheDirAs(cfg *Config, uids *uidRange, euid int) error {
	defaulted := cfg.CacheDir == ""
	if defaulted {
		dir, err := defaultCacheDir(euid)
		if err != nil {
			return err
		}
		cfg.CacheDir = dir
	}
	// Children read the cache as their own uids: any uid of the range
	// stands for all (none owns anything).
	readerUID := -1
	if uids != nil {
		readerUID = uids.base
	}
	dir, err := prepareCacheDir(cfg.CacheDir, readerUID, readerUID)
	if err != nil && defaulted {
		// Nobody chose this place: say where it came from and what to set
		// (a service's $HOME may not exist, or be /).
		return fmt.Errorf("supervisor: the default compilation cache %s is unusable (set Config.CacheDir, warden --cache-dir, to a directory of the supervisor's user, or give a systemd unit CacheDirectory=): %w", cfg.CacheDir, err)
	}
	if err != nil {
		return err
	}
	cfg.CacheDir = dir
	return nil
}

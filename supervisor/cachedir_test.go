package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// publicTempDir is a directory the children's uid can search (the
// supervisor refuses a cache it cannot): os.MkdirTemp makes 0700.
func publicTempDir(t testing.TB) string { return testutil.TempPublicDir(t) }

// TestCacheDirRefused: New refuses a cache directory (or an entry in it)
// that anyone but the supervisor's uid could have written or could
// replace, or that the children's uid cannot reach, and names the path.
func TestCacheDirRefused(t *testing.T) {
	testutil.RequireRoot(t, "chown files to another uid")
	const other = 12345
	mk := func(t *testing.T, p string, mode os.FileMode) {
		t.Helper()
		if err := os.Mkdir(p, mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	// entry makes cache/wazero-v0/0123 with the given file mode.
	entry := func(t *testing.T, cache string, mode os.FileMode) string {
		t.Helper()
		mk(t, cache, 0o755)
		mk(t, filepath.Join(cache, "wazero-v0"), 0o755)
		f := filepath.Join(cache, "wazero-v0", "0123")
		if err := os.WriteFile(f, []byte("code"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(f, mode)
		return f
	}
	tests := []struct {
		name string
		// setup builds the case under base and returns the cache dir to
		// configure and the path the error must name.
		setup func(t *testing.T, base string) (cache, bad string)
	}{
		{"dir owned by another uid", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			mk(t, c, 0o755)
			os.Chown(c, other, other)
			return c, c
		}},
		{"group-writable dir", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			mk(t, c, 0o775)
			return c, c
		}},
		{"other-writable dir", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			mk(t, c, 0o757)
			return c, c
		}},
		{"symlinked cache dir", func(t *testing.T, base string) (string, string) {
			real := filepath.Join(base, "real")
			mk(t, real, 0o755)
			c := filepath.Join(base, "cache")
			os.Symlink(real, c)
			return c, c
		}},
		{"wazero dir owned by another uid", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			entry(t, c, 0o644)
			os.Chown(filepath.Join(c, "wazero-v0"), other, other)
			return c, filepath.Join(c, "wazero-v0")
		}},
		{"group-writable cache file", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			return c, entry(t, c, 0o664)
		}},
		{"other-writable cache file", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			return c, entry(t, c, 0o646)
		}},
		{"cache file owned by another uid", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			f := entry(t, c, 0o644)
			os.Chown(f, other, other)
			return c, f
		}},
		{"symlink in the cache", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			entry(t, c, 0o644)
			l := filepath.Join(c, "wazero-v0", "4567")
			os.Symlink("/etc/passwd", l)
			return c, l
		}},
		{"parent not searchable by the children", func(t *testing.T, base string) (string, string) {
			p := filepath.Join(base, "private")
			mk(t, p, 0o700)
			return filepath.Join(p, "cache"), p
		}},
		{"parent owned by another uid", func(t *testing.T, base string) (string, string) {
			p := filepath.Join(base, "theirs")
			mk(t, p, 0o755)
			os.Chown(p, other, other)
			return filepath.Join(p, "cache"), p
		}},
		{"parent writable by its group", func(t *testing.T, base string) (string, string) {
			p := filepath.Join(base, "shared")
			mk(t, p, 0o775)
			return filepath.Join(p, "cache"), p
		}},
		{"cache dir not searchable by the children", func(t *testing.T, base string) (string, string) {
			c := filepath.Join(base, "cache")
			mk(t, c, 0o700)
			return c, c
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := publicTempDir(t)
			cache, bad := tc.setup(t, base)
			s, err := New(Config{CacheDir: cache, PoolSize: 1})
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				s.Close(ctx)
				t.Fatalf("New accepted %s", bad)
			}
			if !errors.Is(err, ErrUnsafeCache) || !strings.Contains(err.Error(), bad) {
				t.Fatalf("want ErrUnsafeCache naming %s, got %v", bad, err)
			}
			t.Log(err)
		})
	}
}

// TestCacheDirCreated: a missing cache dir (and missing parents) is
// created 0755 by the supervisor, whatever the umask; parents that exist
// keep their mode.
func TestCacheDirCreated(t *testing.T) {
	base := publicTempDir(t)
	cache := filepath.Join(base, "a", "b", "cache")
	got, err := prepareCacheDir(cache, nobody, nobody)
	if err != nil {
		t.Fatal(err)
	}
	if got != cache {
		t.Errorf("prepared %s, want %s", got, cache)
	}
	for _, d := range []string{filepath.Join(base, "a"), filepath.Join(base, "a", "b"), cache} {
		st, err := os.Lstat(d)
		if err != nil || st.Mode().Perm() != 0o755 || !st.IsDir() {
			t.Errorf("%s: %v %v, want a 0755 directory", d, st.Mode(), err)
		}
	}
}

// TestDefaultCacheDir: no fallback under the temporary directory; as
// root the default does not depend on $HOME; a systemd unit's
// CacheDirectory= ($CACHE_DIRECTORY) comes first for any user.
func TestDefaultCacheDir(t *testing.T) {
	tests := []struct {
		name           string
		euid           int
		xdg, home      string
		cacheDirectory string
		want           string // "" wants ErrNoCacheDir
	}{
		{"root ignores HOME", 0, "", "/root", "", RootCacheDir},
		{"root without HOME", 0, "", "", "", RootCacheDir},
		{"user with XDG_CACHE_HOME", 1000, "/x/cache", "/home/u", "", "/x/cache/warden/wazero"},
		{"user with HOME only", 1000, "", "/home/u", "", "/home/u/.cache/warden/wazero"},
		{"user without HOME", 1000, "", "", "", ""},
		{"user under systemd's CacheDirectory", 1000, "", "", "/var/cache/warden", "/var/cache/warden/wazero"},
		{"user with several CacheDirectory", 1000, "", "/home/u", "/var/cache/a:/var/cache/b", "/var/cache/a/wazero"},
		{"root under systemd's CacheDirectory", 0, "", "", "/var/cache/svc", "/var/cache/svc/wazero"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			t.Setenv("CACHE_DIRECTORY", tc.cacheDirectory)
			got, err := defaultCacheDir(tc.euid)
			if tc.want == "" {
				if !errors.Is(err, ErrNoCacheDir) || !strings.Contains(err.Error(), "Config.CacheDir") || !strings.Contains(err.Error(), "--cache-dir") {
					t.Fatalf("want ErrNoCacheDir naming Config.CacheDir and --cache-dir, got %q, %v", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// A default cache the supervisor cannot make (a service user whose $HOME
// does not exist, or is a file, or is /) fails New with an error that
// names the setting to change, not only the mkdir that failed.
func TestUnusableDefaultCacheDirNamesTheSetting(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("CACHE_DIRECTORY", "")
	t.Setenv("HOME", file)
	cfg := Config{}
	err := resolveCacheDirAs(&cfg, nil, 1000)
	if err == nil {
		t.Fatalf("a cache under %s/.cache was accepted", file)
	}
	for _, want := range []string{"Config.CacheDir", "--cache-dir", "CacheDirectory=", file} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// nobody is a uid other than the supervisor's, for the checks of who may
// search the cache's path.
const nobody = 65534

// TestCacheCheckPassesOverFilesBeingWritten: supervisors sharing a cache
// directory each run a compile child, which writes its snapshot to a
// temporary file and renames it. Another supervisor's check of the tree
// sees such a file listed and then gone, or half written: the check
// passes over the first and gives the second no digest. (CI once failed
// a New on a snapshot's temporary file renamed between the two.)
func TestCacheCheckPassesOverFilesBeingWritten(t *testing.T) {
	cache := publicTempDir(t)
	dir := filepath.Join(cache, "snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "entry"), []byte("whole"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			f, err := os.CreateTemp(dir, ".snapshot-*")
			if err != nil {
				continue
			}
			f.Write([]byte("half"))
			f.Close()
			if i%2 == 0 {
				os.Rename(f.Name(), filepath.Join(dir, "renamed"))
			} else {
				os.Remove(f.Name())
			}
			w, err := os.CreateTemp(dir, "key.*.tmp")
			if err == nil {
				w.Close()
				os.Remove(w.Name())
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for i := 0; i < 2000; i++ {
		sums, err := checkCacheTree(cache, false, true)
		if err != nil {
			t.Fatalf("check %d: %v", i, err)
		}
		for rel := range sums {
			if isTempEntry(filepath.Base(rel)) {
				t.Fatalf("check %d: a digest for the temporary file %s", i, rel)
			}
		}
		if _, ok := sums[filepath.Join("snapshots", "entry")]; !ok {
			t.Fatalf("check %d: no digest for the entry: %v", i, sums)
		}
	}
}

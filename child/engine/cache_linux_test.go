package engine

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"golang.org/x/sys/unix"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestCacheMappedFromFile: with the patched wazero (build/wazero, what
// `make test` builds), an engine that loads the module from the cache maps
// the entry's native code from the cache file (read-only, executable,
// private) instead of copying it. With stock wazero the test says so and
// skips.
func TestCacheMappedFromFile(t *testing.T) {
	dir := t.TempDir()
	compileInto(t, dir)
	entry := cacheEntry(t, dir)
	if !testutil.CacheEntryMappable(t, entry) {
		t.Skipf("skipping: %s is a stock wazero cache entry (built without build/wazero's patch, e.g. plain go test): nothing is mapped", entry)
	}
	eng := loadAndRun(t, dir)
	if m := mappingsOf(t, entry); len(m) != 1 || !strings.HasPrefix(m[0], "r-xp") {
		t.Fatalf("want the cache entry mapped once, r-xp; /proc/self/maps has %q", m)
	}
	if err := eng.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestCacheOnNoexecMount: a cache directory on a file system mounted
// noexec refuses executable mappings of its files; the patched wazero then
// copies the code into executable memory, as stock wazero always does,
// and the engine works. Needs root to mount a tmpfs.
func TestCacheOnNoexecMount(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skipf("skipping: needs root to mount a noexec tmpfs (running as uid %d)", os.Geteuid())
	}
	dir := t.TempDir()
	if err := unix.Mount("warden-noexec", dir, "tmpfs", unix.MS_NOEXEC|unix.MS_NOSUID|unix.MS_NODEV, "size=64m,mode=0700"); err != nil {
		t.Skipf("skipping: cannot mount a noexec tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	compileInto(t, dir)
	entry := cacheEntry(t, dir)
	eng := loadAndRun(t, dir)
	defer eng.Close(context.Background())
	if m := mappingsOf(t, entry); len(m) != 0 {
		t.Fatalf("the cache entry on a noexec mount is mapped: %q", m)
	}
	t.Logf("entry of the mappable layout: %v; loaded by copying", testutil.CacheEntryMappable(t, entry))
}

// compileInto fills the cache in dir with the module, compiled by an
// engine of loadAndRun's configuration.
func compileInto(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	eng, err := New(ctx, Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// loadAndRun makes an engine over the cache in dir and runs code in it.
func loadAndRun(t *testing.T, dir string) *Engine {
	t.Helper()
	ctx := context.Background()
	eng, err := New(ctx, Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	res := eng.Execute(ctx, contract.Request{Code: "let s = 0; for (let i = 0; i < 100; i++) s += i; return s"}, RunOptions{})
	if !res.OK || string(res.Value) != "4950" {
		eng.Close(ctx)
		t.Fatalf("want 4950, got %+v %s", res.Error, res.Value)
	}
	return eng
}

// cacheEntry is the one compiled module in the cache dir.
func cacheEntry(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "wazero-*", "*"))
	if len(files) != 1 {
		t.Fatalf("want one compiled module in %s, got %q", dir, files)
	}
	return files[0]
}

// mappingsOf lists the permissions of this process's mappings of path.
func mappingsOf(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var perms []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && fields[5] == path {
			perms = append(perms, fields[1])
		}
	}
	return perms
}

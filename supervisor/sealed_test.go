package supervisor

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/childimage"
	"github.com/wardenhq/warden/internal/memfd"
	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// runOne runs a trivial script and fails the test unless it succeeds.
func runOne(t *testing.T, s *Supervisor) contract.Result {
	t.Helper()
	res, err := s.Execute(context.Background(), contract.Request{Code: "return 6 * 7"}, nil)
	if err != nil || !res.OK || string(res.Value) != "42" {
		t.Fatalf("Execute: %+v, %v", res, err)
	}
	return res
}

// hasPhase reports whether s's children went through the start-up phase
// name.
func hasPhase(s *Supervisor, name string) bool {
	for _, p := range s.Stats().Startup {
		if p.Side == "child" && p.Name == name {
			return true
		}
	}
	return false
}

// fdLinks is where a process's descriptors lead.
func fdLinks(t *testing.T, pid int) []string {
	t.Helper()
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name())); err == nil {
			out = append(out, e.Name()+" -> "+l)
		}
	}
	return out
}

func TestChildrenMapSealedCacheFiles(t *testing.T) {
	s := newSup(t, nil)
	runOne(t, s)
	info := s.Cache()
	if info.SealedFiles == 0 {
		t.Skipf("skipping: the cache was not sealed on this machine: %s", info.SealedNote)
	}
	// The compiled module and the heap snapshot, at least.
	if info.SealedFiles < 2 || info.SealedBytes <= 0 {
		t.Errorf("sealed %d files, %d bytes; want the module and the snapshot", info.SealedFiles, info.SealedBytes)
	}
	if !hasPhase(s, child.PhaseSealed) || hasPhase(s, child.PhaseCacheCheck) {
		t.Errorf("children's start-up phases %+v: want the seals checked and no SHA-256 check", s.Stats().Startup)
	}
	// An idle child holds the sealed files as descriptors 3 and up.
	waitIdle(t, s, 1)
	var sealed int
	for _, pid := range childPIDs(t) {
		for _, l := range fdLinks(t, pid) {
			if strings.Contains(l, "memfd:warden-") {
				sealed++
			}
		}
	}
	if sealed < info.SealedFiles {
		t.Errorf("idle children hold %d sealed descriptors; want at least %d", sealed, info.SealedFiles)
	}
}

func TestSealingFailsAndChildrenHashTheFiles(t *testing.T) {
	defer func(f func(string, map[string]string, []string) (*sealedCache, error)) { sealCacheFiles = f }(sealCacheFiles)
	sealCacheFiles = func(string, map[string]string, []string) (*sealedCache, error) {
		return nil, fmt.Errorf("%w: memfd_create: function not implemented (test)", memfd.ErrUnsupported)
	}
	s := newSup(t, nil)
	runOne(t, s)
	info := s.Cache()
	if info.SealedFiles != 0 || !strings.Contains(info.SealedNote, "function not implemented (test)") {
		t.Errorf("CacheInfo %+v: want no sealed files and the reason", info)
	}
	if !hasPhase(s, child.PhaseCacheCheck) || hasPhase(s, child.PhaseSealed) {
		t.Errorf("children's start-up phases %+v: want the SHA-256 check", s.Stats().Startup)
	}
}

// withoutSealing makes the supervisors the test makes leave the cache
// files on disk, as a machine without sealed memory files does: children
// read and hash them.
func withoutSealing(t *testing.T) {
	t.Helper()
	old := sealCacheFiles
	t.Cleanup(func() { sealCacheFiles = old })
	sealCacheFiles = func(string, map[string]string, []string) (*sealedCache, error) {
		return nil, errors.New("sealing switched off by the test")
	}
}

// TestSealedFilesOutliveChangesOnDisk: once sealed, what children map is
// the bytes the supervisor checked, whatever happens to the files on
// disk: a module changed in place or truncated under the children (which
// without sealing kills a child that mapped it: TestCacheTruncatedWhileMapped)
// and a corrupted snapshot reach no child, running or new.
func TestSealedFilesOutliveChangesOnDisk(t *testing.T) {
	cache := filepath.Join(publicTempDir(t), "cache")
	s := newSup(t, func(c *Config) { c.CacheDir, c.PoolSize, c.KeepWarm = cache, 2, -1 })
	runOne(t, s)
	if info := s.Cache(); info.SealedFiles == 0 {
		t.Skipf("skipping: the cache was not sealed on this machine: %s", info.SealedNote)
	}
	waitIdle(t, s, 2)
	modules, _ := filepath.Glob(filepath.Join(cache, "*", "wazero-*", "*"))
	snapshots, _ := filepath.Glob(filepath.Join(cache, "snapshots", "*"))
	if len(modules) != 1 || len(snapshots) == 0 {
		t.Fatalf("want one compiled module and a snapshot, got %v %v", modules, snapshots)
	}
	for _, path := range snapshots {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)-1000] ^= 0x10
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(modules[0], 4096); err != nil {
		t.Fatal(err)
	}
	// The idle children (mapped before), then children spawned after.
	for i := 0; i < 5; i++ {
		res, err := s.Execute(context.Background(), contract.Request{Code: "let s = 0; for (let i = 0; i < 1000; i++) s += i; return s"}, nil)
		if err != nil || !res.OK || string(res.Value) != "499500" {
			t.Fatalf("execution %d after the files on disk changed: %+v, %v", i, res, err)
		}
	}
	p, err := s.spawner.spawn(context.Background(), profile{memory: s.cfg.Defaults.MemoryBytes})
	if err != nil {
		t.Fatalf("a spawn after the files on disk changed: %v", err)
	}
	p.Discard()
}

// TestChildRefusesUnsealedFiles attacks the child's own check with the
// supervisor's sealing switched off: files that are not sealed memory
// files, handed over as if they were, and a view whose link leads
// elsewhere, make every child refuse to start rather than map them.
func TestChildRefusesUnsealedFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(*testing.T, *sealedCache)
		want   string
	}{
		{"a file on disk", func(t *testing.T, sc *sealedCache) {
			f, err := os.CreateTemp(t.TempDir(), "plain")
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(f, io.NewSectionReader(sc.files[0], 0, 1<<30))
			sc.files[0].Close()
			sc.files[0] = f
		}, "not a sealed memory file"},
		{"a link to another descriptor", func(t *testing.T, sc *sealedCache) {
			for rel, fd := range sc.fds {
				if !strings.HasPrefix(rel, "snapshots") {
					link := sc.view + "/" + rel
					os.Remove(link)
					os.Symlink(fmt.Sprintf("/proc/self/fd/%d", fd+40), link)
					return
				}
			}
		}, "links to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(f func(string, map[string]string, []string) (*sealedCache, error)) { sealCacheFiles = f }(sealCacheFiles)
			sealCacheFiles = func(cache string, digests map[string]string, rels []string) (*sealedCache, error) {
				sc, err := sealCache(cache, digests, rels)
				if err != nil {
					return nil, err
				}
				tc.break_(t, sc)
				return sc, nil
			}
			if _, err := memfd.New("probe", strings.NewReader(""), 0); errors.Is(err, memfd.ErrUnsupported) {
				t.Skipf("skipping: %v", err)
			}
			logs := &testutil.SyncBuffer{}
			s := newSup(t, func(c *Config) {
				c.PoolSize, c.StartTimeout, c.QueueTimeout = 1, 10*time.Second, 3*time.Second
				c.Logger = slog.New(slog.NewJSONHandler(logs, nil))
			})
			if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err == nil {
				t.Fatal("an execution ran in a child given files that are not sealed")
			}
			// The child's reason reaches the supervisor's log, from its
			// stderr.
			if !strings.Contains(logs.String(), tc.want) {
				t.Errorf("the supervisor's log does not say %q:\n%s", tc.want, logs.String())
			}
		})
	}
}

// testImage gives a supervisor this test binary, which serves as a child
// (TestMain), as the child image its executable would carry.
func testImage(t *testing.T, data func(*os.File) *childimage.Image) {
	t.Helper()
	old := findChildImage
	t.Cleanup(func() { findChildImage = old })
	findChildImage = func() (*os.File, *childimage.Image, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, nil, err
		}
		f, err := os.Open(exe)
		if err != nil {
			return nil, nil, err
		}
		img := data(f)
		// The trailer's digest, as Append writes it.
		h := sha256.New()
		io.Copy(h, io.NewSectionReader(img.Data, 0, img.Size))
		copy(img.SHA256[:], h.Sum(nil))
		return f, img, nil
	}
}

func TestLeanChildRunsFromASealedMemoryFile(t *testing.T) {
	if _, err := memfd.New("probe", strings.NewReader(""), 0); errors.Is(err, memfd.ErrUnsupported) {
		t.Skipf("skipping: %v", err)
	}
	testImage(t, func(f *os.File) *childimage.Image {
		fi, _ := f.Stat()
		return &childimage.Image{Data: io.NewSectionReader(f, 0, fi.Size()), Size: fi.Size()}
	})
	s := newSup(t, nil)
	runOne(t, s)
	if info := s.Cache(); !strings.Contains(info.Child, "from a sealed memory file") {
		t.Errorf("CacheInfo.Child %q: want the lean child", info.Child)
	}
	waitIdle(t, s, 1)
	pids := childPIDs(t)
	if len(pids) == 0 {
		t.Fatal("no idle child")
	}
	checked := 0
	for _, pid := range pids {
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if errors.Is(err, fs.ErrNotExist) {
			// A child that ended meanwhile (the one that served runOne,
			// being reaped): nothing to check.
			continue
		}
		checked++
		if err != nil || !strings.Contains(exe, "memfd:warden-child") {
			t.Errorf("child %d runs %q (%v); want the sealed memory file", pid, exe, err)
		}
		// The image's descriptor was close-on-exec: the child does not
		// hold it.
		for _, l := range fdLinks(t, pid) {
			if strings.Contains(l, "memfd:warden-child") {
				t.Errorf("child %d holds the image: %s", pid, l)
			}
		}
	}
	if checked == 0 {
		t.Errorf("every child of %v ended before it could be checked", pids)
	}
}

func TestLeanChildThatDoesNotStartFallsBack(t *testing.T) {
	testImage(t, func(*os.File) *childimage.Image {
		junk := []byte("not an executable at all")
		return &childimage.Image{Data: io.NewSectionReader(strings.NewReader(string(junk)), 0, int64(len(junk))), Size: int64(len(junk))}
	})
	s := newSup(t, nil)
	runOne(t, s)
	if info := s.Cache(); !strings.Contains(info.Child, "children re-execute this executable") {
		t.Errorf("CacheInfo.Child %q: want the fallback and why", info.Child)
	}
}

func TestDamagedChildImageFailsNew(t *testing.T) {
	old := findChildImage
	defer func() { findChildImage = old }()
	findChildImage = func() (*os.File, *childimage.Image, error) {
		return nil, nil, errors.New("childimage: warden: the child's bytes do not match the SHA-256 in its trailer")
	}
	_, err := New(Config{CacheDir: cacheDir, QueueTimeout: testutil.Timeout()})
	if err == nil || !strings.Contains(err.Error(), "do not match") {
		t.Fatalf("New with a damaged image: %v", err)
	}
}

// TestExecutionPhases: Stats.Execution accounts for an execution a child
// reported, phase by phase, and the phases add up to the whole call.
func TestExecutionPhases(t *testing.T) {
	s := newSup(t, nil)
	res := runOne(t, s)
	got := map[string]PhaseStat{}
	for _, p := range s.Stats().Execution {
		got[p.Name] = p
	}
	total, ok := got[phaseTotal]
	if !ok || total.Samples != 1 || got[phaseExecution].WallMS != res.Stats.WallMS {
		t.Fatalf("Stats.Execution %+v: want one sample of every phase, the execution's as its wall_ms %v", got, res.Stats.WallMS)
	}
	var sum float64
	for _, name := range []string{phaseDispatch, phaseWire, phaseExecution, phaseFinish} {
		if _, ok := got[name]; !ok {
			t.Errorf("no phase %q", name)
		}
		sum += got[name].WallMS
	}
	if sum < total.WallMS*0.9 || sum > total.WallMS*1.1+0.01 {
		t.Errorf("the phases add up to %.3f ms, the call took %.3f ms", sum, total.WallMS)
	}
}

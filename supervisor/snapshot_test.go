package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/child"
	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
)

// snapshotSup is a supervisor on a cache of its own, whose compile child
// made the heap snapshot; it returns the snapshot's path.
func snapshotSup(t *testing.T, mod func(*Config)) (*Supervisor, string) {
	t.Helper()
	cache := filepath.Join(publicTempDir(t), "cache")
	s := newSup(t, func(c *Config) {
		c.CacheDir, c.PoolSize, c.QueueTimeout = cache, 2, 2*time.Second
		if mod != nil {
			mod(c)
		}
	})
	// The first execution proves the cache and the snapshot good; it
	// waits for the compile child, which a loaded machine can make
	// outlast QueueTimeout.
	waitIdle(t, s, 1)
	if res, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil || !res.OK {
		t.Fatalf("first execution: %v %+v", err, res.Error)
	}
	rel := filepath.FromSlash(engine.SnapshotFile(""))
	digests := s.spawner.(*processSpawner).compile.state.Load().digests
	if _, ok := digests[rel]; !ok {
		t.Fatalf("the compile child made no heap snapshot %s (cache: %v)", rel, digests)
	}
	return s, filepath.Join(cache, rel)
}

// TestSnapshotChildren: children start from the compile child's heap
// snapshot (their start-up account says so), each draws its own
// Math.random sequence, and what one execution does to globals and
// prototypes never reaches another.
func TestSnapshotChildren(t *testing.T) {
	s, path := snapshotSup(t, nil)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	seqs := map[string]bool{}
	for i := 0; i < 3; i++ {
		res, err := s.Execute(ctx, contract.Request{Code: "return [Math.random(), Math.random(), Math.random()]"}, nil)
		if err != nil || !res.OK {
			t.Fatalf("%v %+v", err, res.Error)
		}
		if seqs[string(res.Value)] {
			t.Fatalf("two children from one snapshot gave the same Math.random sequence %s", res.Value)
		}
		seqs[string(res.Value)] = true
	}
	res, err := s.Execute(ctx, contract.Request{Code: `globalThis.leak = 42; Object.prototype.polluted = 'yes';
Array.prototype.includes = null; Math.random = () => 4; return 1`}, nil)
	if err != nil || !res.OK {
		t.Fatalf("%v %+v", err, res.Error)
	}
	res, err = s.Execute(ctx, contract.Request{Code: "return [typeof leak, ({}).polluted === undefined, typeof [].includes, Math.random() !== 4]"}, nil)
	if err != nil || string(res.Value) != `["undefined",true,"function",true]` {
		t.Fatalf("the next child saw what an execution in another one did: %v %+v %s", err, res.Error, res.Value)
	}
	phases := map[string]bool{}
	for _, p := range s.Stats().Startup {
		phases[p.Name] = true
	}
	if !phases[child.PhaseVMSnapshot] || phases[child.PhaseVM] {
		t.Fatalf("want every child started from the snapshot, got phases %v", phases)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("children changed the snapshot file")
	}
}

// TestSnapshotRefusedByChildren: a snapshot changed after the compile
// child made it (corrupted, truncated) is refused by the next child,
// like any file of the cache: the spawn fails saying which file, and
// executions get a CapacityError naming it once no good child is left.
// A child never runs from it, nor falls back to init behind it.
func TestSnapshotRefusedByChildren(t *testing.T) {
	withoutSealing(t) // sealed files are immune: TestSealedFilesOutliveChangesOnDisk
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, path string)
	}{
		{"corrupted", func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)-1000] ^= 0x10
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated", func(t *testing.T, path string) {
			if err := os.Truncate(path, 70000); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := snapshotSup(t, func(c *Config) { c.PoolSize = 1 })
			tc.tamper(t, path)
			_, err := s.spawner.spawn(context.Background(), profile{memory: s.cfg.Defaults.MemoryBytes})
			if err == nil || !strings.Contains(err.Error(), "snapshots") || !strings.Contains(err.Error(), "does not match") {
				t.Fatalf("spawn over a tampered snapshot: want an error naming it, got %v", err)
			}
			t.Log(err)
			var res contract.Result
			for i := 0; i < 3; i++ {
				if res, err = s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
					break
				}
			}
			if err == nil || res.Error.Type != contract.CapacityError || !strings.Contains(res.Error.Message, "snapshots") {
				t.Fatalf("want a CapacityError naming the snapshot, got %+v", res.Error)
			}
		})
	}
}

// TestStaleSnapshotNotUsed: a snapshot some other build left in the
// cache (another key, so another name) is never opened, and one left at
// this build's name is replaced by the compile child.
func TestStaleSnapshotNotUsed(t *testing.T) {
	cache := filepath.Join(publicTempDir(t), "cache")
	dir := filepath.Join(cache, "snapshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(cache, filepath.FromSlash(engine.SnapshotFile("")))
	other := filepath.Join(dir, engine.CacheFlavour()+"-00000000000000000000000000000000.snap")
	for _, p := range []string{own, other} {
		if err := os.WriteFile(p, []byte("not a snapshot"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSup(t, func(c *Config) { c.CacheDir, c.PoolSize = cache, 1 })
	res, err := s.Execute(context.Background(), contract.Request{Code: "return Math.random() < 1"}, nil)
	if err != nil || string(res.Value) != "true" {
		t.Fatalf("%v %+v", err, res.Error)
	}
	if b, _ := os.ReadFile(own); string(b) == "not a snapshot" {
		t.Fatal("the compile child left a stale file at this build's snapshot name")
	}
	phases := map[string]bool{}
	for _, p := range s.Stats().Startup {
		phases[p.Name] = true
	}
	if !phases[child.PhaseVMSnapshot] {
		t.Fatalf("want the child started from this build's snapshot, got %v", phases)
	}
}

// TestSnapshotSharedCacheDir: supervisors sharing a cache directory each
// run a compile child, which rewrites the snapshot: the file must come
// out byte for byte the same (the words children reseed are stored as
// zeros), or the first supervisor's children would refuse the second's.
func TestSnapshotSharedCacheDir(t *testing.T) {
	s1, path := snapshotSup(t, func(c *Config) { c.PoolSize = 1 })
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s2 := newSup(t, func(c *Config) { c.CacheDir, c.PoolSize = s1.cfg.CacheDir, 1 })
	if res, err := s2.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil || !res.OK {
		t.Fatalf("second supervisor: %v %+v", err, res.Error)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a second compile child wrote a different snapshot")
	}
	p, err := s1.spawner.spawn(context.Background(), profile{memory: s1.cfg.Defaults.MemoryBytes})
	if err != nil {
		t.Fatalf("the first supervisor's next child, after a second compile child ran: %v", err)
	}
	p.Discard()
}

package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"

	"github.com/wardenhq/warden/internal/testkit/testutil"
)

// TestCompileGate: one filler at a time; a failed fill hands the turn to
// the next caller; a waiter whose ctx ends gives up; once a fill succeeds
// everyone gets its result at once.
func TestCompileGate(t *testing.T) {
	g := newCompileGate()
	release := make(chan struct{})
	entered := make(chan struct{})
	fail := errors.New("compile failed")
	firstErr := make(chan error, 1)
	go func() {
		_, err := g.wait(context.Background(), func(context.Context) (*cacheState, error) {
			close(entered)
			<-release
			return nil, fail
		})
		firstErr <- err
	}()
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.wait(ctx, func(context.Context) (*cacheState, error) {
		t.Error("a second filler got in while the first held the turn")
		return nil, nil
	}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiter whose ctx ended: %v", err)
	}
	close(release)
	if err := <-firstErr; !errors.Is(err, fail) {
		t.Fatalf("first filler: %v", err)
	}
	want := &cacheState{digests: map[string]string{"f": "x"}}
	fills := 0
	for i := 0; i < 3; i++ {
		st, err := g.wait(context.Background(), func(context.Context) (*cacheState, error) {
			fills++
			return want, nil
		})
		if err != nil || st != want {
			t.Fatalf("wait %d: %v, %v", i, st, err)
		}
	}
	if fills != 1 {
		t.Fatalf("filled %d times after a failure, want once", fills)
	}
}

// TestCacheDigestMismatch: a compiled module changed (or a file planted)
// after the compile child ran is refused by the next child, and the
// spawn fails with an error that says so; the supervisor keeps serving
// the children it already has and does not crash.
func TestCacheDigestMismatch(t *testing.T) {
	withoutSealing(t) // sealed files are immune: TestSealedFilesOutliveChangesOnDisk
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, module string)
		want   string
	}{
		{"modified module", func(t *testing.T, module string) {
			b, err := os.ReadFile(module)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 0xff
			if err := os.WriteFile(module, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "does not match"},
		{"planted file", func(t *testing.T, module string) {
			if err := os.WriteFile(module+"0", []byte("code"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not one the supervisor's compile child wrote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := filepath.Join(publicTempDir(t), "cache")
			s := newSup(t, func(c *Config) { c.CacheDir = cache; c.PoolSize = 1; c.QueueTimeout = 2 * time.Second })
			// The first execution proves the cache good.
			if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
				t.Fatal(err)
			}
			files, _ := filepath.Glob(filepath.Join(cache, "*", "wazero-*", "*"))
			if len(files) != 1 {
				t.Fatalf("want one compiled module in the cache, got %v", files)
			}
			tc.tamper(t, files[0])
			_, err := s.spawner.spawn(context.Background(), profile{memory: s.cfg.Defaults.MemoryBytes})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "compilation cache") {
				t.Fatalf("spawn over a tampered cache: want an error saying %q, got %v", tc.want, err)
			}
			t.Log(err)
			// Executions fail with the reason once the pool has no good
			// child left.
			var res contract.Result
			for i := 0; i < 3; i++ {
				res, err = s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
				if err != nil {
					break
				}
			}
			if err == nil || res.Error.Type != contract.CapacityError || !strings.Contains(res.Error.Message, tc.want) {
				t.Fatalf("want a CapacityError naming the cache, got %+v", res.Error)
			}
		})
	}
}

// TestCompileChildFailure: a compile child that fails, or that does not
// finish within StartTimeout, fails the spawn with an error that says
// so (and, for a failure, what the child wrote on stderr).
func TestCompileChildFailure(t *testing.T) {
	for _, tc := range []struct{ name, script, want string }{
		{"exits 1", "echo 'no space left on device' >&2; exit 1", "no space left on device"},
		{"hangs", "exec sleep 30", "within 300ms (Config.StartTimeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Not the minute a compile child gets at least.
			defer func(d time.Duration) { compileMinTimeout = d }(compileMinTimeout)
			compileMinTimeout = 0
			dir := publicTempDir(t)
			bin := filepath.Join(dir, "child.sh")
			if err := os.WriteFile(bin, []byte("#!/bin/sh\n"+tc.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			s := newSup(t, func(c *Config) {
				c.Binary, c.CacheDir, c.PoolSize, c.StartTimeout = bin, filepath.Join(dir, "cache"), 1, 300*time.Millisecond
			})
			start := time.Now()
			_, err := s.spawner.spawn(context.Background(), profile{memory: s.cfg.Defaults.MemoryBytes})
			if err == nil || !strings.Contains(err.Error(), "compile child") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error about the compile child saying %q, got %v", tc.want, err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("spawn took %v", d)
			}
			if c := s.Cache(); c.Ready {
				t.Error("cache marked ready after a failed compile child")
			}
			t.Log(err)
		})
	}
}

// TestCacheTruncatedWhileMapped: the patched wazero (build/wazero) maps
// the compiled module from the cache file instead of copying it, so a
// cache file truncated after a child checked and mapped it takes the code
// out from under that child: its execution faults (SIGBUS) and the child
// dies. That must reach the caller as the execution's SandboxError, with
// the supervisor alive and refusing the changed cache to later children.
// The supervisor retries an execution whose child died before starting
// it on another child, up to maxAttempts: the pool holds that many
// children, all with the module mapped, so every attempt faults. With
// stock wazero (which copies the code) the execution succeeds.
func TestCacheTruncatedWhileMapped(t *testing.T) {
	withoutSealing(t) // a sealed file cannot shrink: TestSealedFilesOutliveChangesOnDisk
	cache := filepath.Join(publicTempDir(t), "cache")
	// Keep-warm off: an idle child re-reading its pages would touch the
	// truncated code and die before an execution reaches it.
	s := newSup(t, func(c *Config) {
		c.CacheDir, c.PoolSize, c.MaxChildren, c.QueueTimeout, c.KeepWarm = cache, maxAttempts, maxAttempts+1, 2*time.Second, -1
	})
	// The first execution proves the cache good; the children that fill
	// the pool have the module mapped once Idle counts them.
	if _, err := s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, s, maxAttempts)
	files, _ := filepath.Glob(filepath.Join(cache, "*", "wazero-*", "*"))
	if len(files) != 1 {
		t.Fatalf("want one compiled module in the cache, got %v", files)
	}
	mapped := testutil.CacheEntryMappable(t, files[0])
	if err := os.Truncate(files[0], 4096); err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(context.Background(), contract.Request{Code: "let s = 0; for (let i = 0; i < 1000; i++) s += i; return s"}, nil)
	if err != nil && res.Error == nil {
		t.Fatalf("execute: %v", err)
	}
	if mapped {
		if res.Error == nil || res.Error.Type != contract.SandboxError {
			t.Fatalf("want the execution in a child whose mapped code was truncated to be a SandboxError, got %+v %s", res.Error, res.Value)
		}
	} else if !res.OK {
		t.Fatalf("stock wazero copies the code: want the execution to succeed, got %+v", res.Error)
	}
	t.Logf("execution in the child whose cache file was truncated: %+v", res.Error)
	if !mapped {
		return
	}
	// Later children refuse the changed cache; the supervisor says why.
	res, _ = s.Execute(context.Background(), contract.Request{Code: "return 1"}, nil)
	if res.Error == nil || !strings.Contains(res.Error.Message, "does not match") {
		t.Fatalf("want later executions refused for the changed cache, got %+v", res.Error)
	}
}

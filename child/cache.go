package child

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/runtimefiles"
	"github.com/wardenhq/warden/ipc"
)

// newEngine is the engine a child runs, and the one the compile child
// fills the cache for: the two must agree, or children would find no
// entry for their configuration. It refuses a configuration without a
// memory profile rather than guess one.
func newEngine(ctx context.Context, cfg ipc.ChildConfig) (*engine.Engine, error) {
	if cfg.MemoryBytes < contract.MinMemoryBytes {
		return nil, fmt.Errorf("child: configuration: memory_bytes %d is below the minimum %d", cfg.MemoryBytes, contract.MinMemoryBytes)
	}
	ecfg := engine.Config{
		CacheDir: cfg.CacheDir,
		// Compiled for this child's profile only.
		MemoryBytes: cfg.MemoryBytes,
		// The supervisor's SIGKILL bounds slow builtins; the optimizing
		// path stays free of per-loop context checks.
		CloseOnContextDone: false,
		// One instance in this process's life: reserve its memory.
		ReserveLinearMemory: true,
	}
	if r := cfg.Registry; r != nil {
		ecfg.Registry = engine.RegistryFromFile(filepath.Join(cfg.CacheDir, filepath.FromSlash(r.File)), r.Digest, r.Names, r.HeapBytes)
	}
	// A binary without its own Intl data reads the pack `warden setup`
	// wrote: a serving child only the one the supervisor recorded, and
	// checks its digest at its first Intl call; the compile child (no
	// record yet, trusted code only) whatever is there.
	if pack := filepath.Join(cfg.CacheDir, runtimefiles.IntlFile()); cfg.CacheDigests != nil {
		if sum, ok := cfg.CacheDigests[runtimefiles.IntlFile()]; ok {
			ecfg.IntlPack, ecfg.IntlPackSHA256 = pack, sum
		}
	} else if _, err := os.Lstat(pack); err == nil {
		ecfg.IntlPack = pack
	}
	// The heap snapshot this build would use, if the supervisor recorded
	// one (the compile child made it): its name holds its key, so a
	// snapshot of another module, prelude or wazero build is not this
	// one. Without it the child runs init.
	snapshot := filepath.FromSlash(engine.SnapshotFile(ecfg.Registry.Digest()))
	if sum, ok := cfg.CacheDigests[snapshot]; ok {
		ecfg.Snapshot = filepath.Join(cfg.CacheDir, snapshot)
		ecfg.SnapshotSHA256 = sum
	}
	return engine.New(ctx, ecfg)
}

// compileOnly is the compile child: it puts the compiled module into the
// cache (wazero compiles it and writes it there, or finds it there),
// makes the heap snapshot children map instead of running init, and
// returns. It runs trusted code only, as the supervisor's uid, before any
// untrusted code exists. A snapshot it cannot make is not an error: it
// says why on stderr (the supervisor logs it) and children run init.
func compileOnly(ctx context.Context, cfg ipc.ChildConfig, logger *slog.Logger) error {
	if err := harden(cfg.Harden); err != nil {
		return err
	}
	eng, err := newEngine(ctx, cfg)
	if err != nil {
		return fmt.Errorf("child: compile into %s: %w", cfg.CacheDir, err)
	}
	if cfg.Registry != nil {
		// Registered modules that do not evaluate fail the supervisor's
		// New, with their error, rather than every child's start-up.
		vm, err := eng.NewVM(ctx, cfg.MemoryBytes)
		if err != nil {
			eng.Close(ctx)
			return fmt.Errorf("child: the registered modules: %w", err)
		}
		vm.Close(ctx)
	}
	if err := eng.WriteSnapshot(ctx, cfg.CacheDir); err != nil {
		logger.Warn("no heap snapshot: children will run init", "error", err.Error())
	}
	return eng.Close(ctx)
}

// verifyCache refuses a compilation cache that is not exactly the files
// the supervisor recorded, with their SHA-256: native code a child maps
// executable must be what the supervisor's compile child wrote. It also
// means the child's entry is there, so the engine only reads the cache
// (wazero writes an entry only on a miss, which the child could not do:
// the cache is not its to write).
func verifyCache(dir string, want map[string]string) error {
	// Only this build's entries (engine.CacheFlavour) are ever loaded:
	// another build's, beside them, are neither read nor hashed.
	flavour := engine.CacheFlavour()
	own := 0
	for rel := range want {
		if strings.HasPrefix(rel, flavour+string(filepath.Separator)) {
			own++
		}
	}
	if own == 0 {
		return fmt.Errorf("child: compilation cache refused: the supervisor recorded no entry of this build's wazero (%s) under %s: its compile child was another binary", flavour, dir)
	}
	seen := 0
	err := filepath.WalkDir(filepath.Join(dir, flavour), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		sum, ok := want[rel]
		if !ok {
			return fmt.Errorf("%s is not a file the supervisor recorded", path)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		got, err := ipc.CacheDigest(f)
		if err != nil {
			return err
		}
		if got != sum {
			return fmt.Errorf("%s does not match the SHA-256 the supervisor recorded", path)
		}
		seen++
		return nil
	})
	if err == nil && seen != own {
		err = fmt.Errorf("%d of the %d files the supervisor recorded for this build are missing", own-seen, own)
	}
	if err != nil {
		return fmt.Errorf("child: compilation cache refused: %w", err)
	}
	return nil
}

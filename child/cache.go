package child

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/child/engine/intl"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/memfd"
	"github.com/wardenhq/warden/internal/runtimefiles"
	"github.com/wardenhq/warden/ipc"
)

// newEngine is the engine a child runs, and the one the compile child
// fills the cache for: the two must agree, or children would find no
// entry for their configuration. It refuses a configuration without a
// memory profile rather than guess one. sealed are the cache files the
// supervisor gave this child as sealed memory files (openSealed; nil:
// none, every file is read from CacheDir).
func newEngine(ctx context.Context, cfg ipc.ChildConfig, sealed sealedFiles) (*engine.Engine, error) {
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
	if sealed != nil {
		// openSealed checked that this build's compiled module is among
		// them.
		ecfg.SealedCompiled = filepath.Join(cfg.SealedView, engine.CacheFlavour())
	}
	// A binary without its own Intl data reads the pack `warden setup`
	// wrote: a serving child only the one the supervisor recorded (or
	// sealed), and checks its digest at its first Intl call; the
	// compile child (no record yet, trusted code only) whatever is there.
	if f, ok := sealed[runtimefiles.IntlFile()]; ok {
		ecfg.SealedIntlPack = f
	} else if pack := filepath.Join(cfg.CacheDir, runtimefiles.IntlFile()); cfg.CacheDigests != nil {
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
	if f, ok := sealed[snapshot]; ok {
		ecfg.SealedSnapshot = f
	} else if sum, ok := cfg.CacheDigests[snapshot]; ok {
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
	eng, err := newEngine(ctx, cfg, nil)
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
	if err := eng.Close(ctx); err != nil {
		return err
	}
	return reportChildFiles(os.Stdout, cfg)
}

// reportChildFiles tells the supervisor (ipc.CompileReport, on stdout)
// which cache files a serving child of cfg reads: every compiled entry of
// this build's wazero, the heap snapshot when there is one, and the Intl
// pack when this binary has no Intl data of its own.
func reportChildFiles(w io.Writer, cfg ipc.ChildConfig) error {
	var files []string
	flavour := filepath.Join(cfg.CacheDir, engine.CacheFlavour())
	err := filepath.WalkDir(flavour, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(cfg.CacheDir, path)
		files = append(files, rel)
		return err
	})
	if err != nil {
		return fmt.Errorf("child: list the compiled module: %w", err)
	}
	var digest string
	if cfg.Registry != nil {
		digest = cfg.Registry.Digest
	}
	also := []string{filepath.FromSlash(engine.SnapshotFile(digest))}
	if !intl.Embedded() {
		also = append(also, runtimefiles.IntlFile())
	}
	for _, rel := range also {
		if fi, err := os.Lstat(filepath.Join(cfg.CacheDir, rel)); err == nil && fi.Mode().IsRegular() {
			files = append(files, rel)
		}
	}
	return json.NewEncoder(w).Encode(ipc.CompileReport{ChildFiles: files})
}

// sealedFiles are the cache files a child was given as sealed memory
// files (ipc.ChildConfig.Sealed), by path relative to the cache.
type sealedFiles map[string]*os.File

// openSealed checks the sealed memory files cfg says this child holds:
// each descriptor must carry every seal (its bytes are what the
// supervisor checked, and nobody can change them), this build's compiled
// module must be among them, and the view's link for each compiled entry
// must lead to its descriptor, since wazero opens it by path. Nil when
// the supervisor sealed nothing.
func openSealed(cfg ipc.ChildConfig) (sealedFiles, error) {
	if len(cfg.Sealed) == 0 {
		return nil, nil
	}
	flavour := engine.CacheFlavour() + string(filepath.Separator)
	files, compiled := sealedFiles{}, 0
	for rel, fd := range cfg.Sealed {
		if fd < 3 {
			return nil, fmt.Errorf("child: sealed cache file %s: descriptor %d is not one of the extra files", rel, fd)
		}
		if err := memfd.Check(uintptr(fd)); err != nil {
			return nil, fmt.Errorf("child: sealed cache file %s: %w", rel, err)
		}
		if strings.HasPrefix(rel, flavour) {
			link, err := os.Readlink(filepath.Join(cfg.SealedView, rel))
			if want := "/proc/self/fd/" + strconv.Itoa(fd); err != nil || link != want {
				return nil, fmt.Errorf("child: sealed cache view %s: %s links to %q (%v), not %s", cfg.SealedView, rel, link, err, want)
			}
			compiled++
		}
		files[rel] = os.NewFile(uintptr(fd), "sealed:"+rel)
	}
	if compiled == 0 {
		return nil, fmt.Errorf("child: the supervisor sealed no compiled module of this build's wazero (%s): its compile child was another binary", engine.CacheFlavour())
	}
	return files, nil
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

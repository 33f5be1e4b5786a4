package supervisor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wardenhq/warden/internal/runtimefiles"
)

// The QuickJS module and the Intl data, for child binaries built
// without them (internal/runtimefiles says which builds those are):
// Config.WasmFile is copied into the cache directory at New, and Setup
// (setup.go) fetches both into it. Children look there themselves; the
// supervisor cannot know what another binary embeds.

// ErrNoWasm is matched (errors.Is) by New's error when the child binary
// has no QuickJS module and none was given or set up: the error names
// the three ways to give it one.
var ErrNoWasm = runtimefiles.ErrNoWasm

// compileExitNoWasm is the compile child's exit status when it has no
// QuickJS module (child.Main), so that New can say ErrNoWasm.
const compileExitNoWasm = 4

// selfEmbedsWasm reports whether this binary carries the module; a
// variable so that a test binary, which links one, can say it does not.
var selfEmbedsWasm = runtimefiles.WasmEmbedded

// prepareWasm installs Config.WasmFile into the cache, and fails with
// ErrNoWasm when the children are this very binary, built without the
// module (`go build`, `go install`), and none was given or set up: New
// says so at once instead of every spawn failing later. Another binary
// may embed the module; its compile child says if it does not (exit
// status compileExitNoWasm), and the spawns fail with ErrNoWasm.
func prepareWasm(cfg *Config) error {
	dest := filepath.Join(cfg.CacheDir, runtimefiles.WasmFile())
	if cfg.WasmFile != "" {
		b, err := os.ReadFile(cfg.WasmFile)
		if err == nil {
			err = runtimefiles.CheckWasm(b)
		}
		if err == nil {
			err = writeCacheFile(dest, b)
		}
		if err != nil {
			return fmt.Errorf("supervisor: Config.WasmFile: %w", err)
		}
		return nil
	}
	if fi, err := os.Lstat(dest); err == nil && fi.Mode().IsRegular() {
		return nil
	}
	if selfEmbedsWasm() {
		return nil
	}
	if self, err := os.Executable(); err == nil && sameFile(self, cfg.Binary) {
		return noWasmError(cfg.CacheDir)
	}
	return nil
}

// sameFile reports whether a and b name one file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// writeCacheFile writes b to path in the cache, 0644 in a 0755
// directory (the cache's rules), replacing what is there by rename: a
// child that mapped the old file keeps it.
func writeCacheFile(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}

// noWasmError is New's error when the compile child had no module.
func noWasmError(cacheDir string) error {
	return fmt.Errorf("supervisor: %w", runtimefiles.NoWasmError(cacheDir))
}

// waitCompile runs the compile child now (New, when the registry's
// modules must be evaluated), bounded like any compile child.
func (sp *processSpawner) waitCompile(cfg Config) error {
	ctx, cancel := context.WithTimeout(context.Background(), max(cfg.StartTimeout, compileMinTimeout))
	defer cancel()
	_, err := sp.compile.wait(ctx, sp.fillCache)
	return err
}

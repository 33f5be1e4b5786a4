package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tetratelabs/wazero"

	"github.com/wardenhq/warden/internal/runtimefiles"
)

// embeddedWasm is the QuickJS module this binary carries: set by
// wasm_embedded.go, which `make wasm` writes beside wasm/quickjs.wasm
// (both git-ignored) once the module's SHA-256 is checked, so `make
// build` embeds it. A build from the module alone (go get, go install)
// has neither file, compiles, and finds the module at run time
// (wasmFor).
var embeddedWasm []byte

// WasmSHA256 pins the module (runtimefiles.WasmSHA256).
const WasmSHA256 = runtimefiles.WasmSHA256

// EmbeddedWasm reports whether this binary carries the QuickJS module.
func EmbeddedWasm() bool { return embeddedWasm != nil }

// pinnedSum is the SHA-256 every module the engine compiles has
// (wasmFor checks it, or the build did).
var pinnedSum = func() (sum [32]byte) {
	b, err := hex.DecodeString(runtimefiles.WasmSHA256)
	if err != nil || copy(sum[:], b) != len(sum) {
		panic("engine: runtimefiles.WasmSHA256 is not a SHA-256")
	}
	return sum
}()

// compileModule compiles wasm (the pinned module) in r. The patched
// wazero (build/wazero) takes the module's SHA-256 from the pin rather
// than hashing its 638 KB again for the cache key; stock wazero has no
// such method and hashes it.
func compileModule(ctx context.Context, r wazero.Runtime, wasm []byte) (wazero.CompiledModule, error) {
	type withSHA256 interface {
		CompileModuleWithSHA256(context.Context, []byte, [32]byte) (wazero.CompiledModule, error)
	}
	if c, ok := r.(withSHA256); ok {
		return c.CompileModuleWithSHA256(ctx, wasm, pinnedSum)
	}
	return r.CompileModule(ctx, wasm)
}

// wasmFor is the module an engine of cfg compiles, checked against the
// pin: Config.Wasm, else the embedded one, else Config.WasmFile, else
// the one `warden setup` put in Config.CacheDir; with none,
// runtimefiles.ErrNoWasm naming the three ways.
func wasmFor(cfg Config) ([]byte, error) {
	b := cfg.Wasm
	if b == nil && embeddedWasm != nil {
		// Checked against the pin when `make wasm` wrote it, and part of
		// this binary since: hashing it again in every child would cost
		// ~0.3 ms of each one's start-up.
		return embeddedWasm, nil
	}
	if b == nil {
		path := cfg.WasmFile
		if path == "" && cfg.CacheDir != "" {
			path = filepath.Join(cfg.CacheDir, runtimefiles.WasmFile())
		}
		if path == "" {
			return nil, fmt.Errorf("engine: %w", runtimefiles.NoWasmError("the cache directory (none was given)"))
		}
		var err error
		b, err = readNoFollow(path)
		if errors.Is(err, fs.ErrNotExist) && cfg.WasmFile == "" {
			return nil, fmt.Errorf("engine: %w", runtimefiles.NoWasmError(cfg.CacheDir))
		}
		if err != nil {
			return nil, fmt.Errorf("engine: the QuickJS wasm module: %w", err)
		}
	}
	if err := runtimefiles.CheckWasm(b); err != nil {
		return nil, fmt.Errorf("engine: %w; run `warden setup` again, or build with `make build`", err)
	}
	return b, nil
}

// readNoFollow reads a regular file, refusing a symbolic link as the
// last element (the cache's rule: a link could point anywhere).
func readNoFollow(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

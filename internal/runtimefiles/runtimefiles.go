// Package runtimefiles names the two things an engine needs that a
// plain `go build` leaves out: the QuickJS wasm module and the Intl
// data. Neither is committed (both come from npm packages, fetched and
// checked against pinned SHA-256s), so a build from the module alone (an
// embedder's `go build` after `go get`, `go install .../cmd/warden`)
// has neither. `make build` embeds both (files it generates beside the
// data, git-ignored); a binary without them finds them in the
// compilation cache directory, under Dir, where `warden setup`
// (supervisor.Setup) put them, or takes the module from a file
// (supervisor.Config.WasmFile, `--wasm FILE`).
//
// This package holds the pins and the names both sides use: the
// supervisor (which must not link the engine) and the engine.
package runtimefiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/wardenhq/warden/internal/intlgen"
)

// WasmPackage is the npm package the QuickJS module comes from, pinned.
const WasmPackage = "quickjs-wasi@3.7.0"

// WasmPath is the module's path inside WasmPackage's tarball.
const WasmPath = "package/quickjs.wasm"

// WasmSHA256 pins the module (WasmPath of WasmPackage). The Makefile
// checks the same value.
const WasmSHA256 = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

// Dir is where, under the compilation cache directory, setup puts them.
const Dir = "runtime"

// WasmFile is the module's path relative to the cache directory: it
// holds the pin, so builds of another pin sharing a cache keep theirs.
func WasmFile() string { return filepath.Join(Dir, "quickjs-"+WasmSHA256[:16]+".wasm") }

// IntlFile is the Intl data pack's path relative to the cache directory:
// it holds the generator's key (intlgen.Key), so a pack another build
// generated is not read as this build's.
func IntlFile() string { return filepath.Join(Dir, "intl-"+intlgen.Key()[:16]+".pack") }

// ErrNoWasm is matched (errors.Is) by the error of a binary that has no
// QuickJS module: not embedded, not given, not set up.
var ErrNoWasm = errors.New("no QuickJS wasm module")

// NoWasmError is ErrNoWasm with the three ways to give a binary the
// module; cacheDir is where it was looked for.
func NoWasmError(cacheDir string) error {
	return fmt.Errorf("%w: this binary was built without it (a plain go build or go install), and %s holds none. Give it one of three ways: "+
		"run `warden setup` (it fetches %s with npm pack and stores it in the cache directory; --cache-dir to choose it); "+
		"or name the module's file with Config.WasmFile (warden --wasm FILE, the daemon's supervisor.wasm_file); "+
		"or build with `make build`, which embeds it",
		ErrNoWasm, filepath.Join(cacheDir, WasmFile()), WasmPackage)
}

// wasmEmbedded is set by the engine of a binary that carries the module.
var wasmEmbedded atomic.Bool

// MarkWasmEmbedded says this binary carries the module (the engine's
// generated embedding file calls it).
func MarkWasmEmbedded() { wasmEmbedded.Store(true) }

// WasmEmbedded reports whether this binary carries the module: false in
// a binary that does not link the engine at all.
func WasmEmbedded() bool { return wasmEmbedded.Load() }

// CheckWasm refuses a module that is not the pinned one.
func CheckWasm(b []byte) error {
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != WasmSHA256 {
		return fmt.Errorf("the QuickJS wasm module has sha256 %s, want %s (%s of %s)", got, WasmSHA256, WasmPath, WasmPackage)
	}
	return nil
}

package supervisor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/internal/runtimefiles"
)

// TestPrepareWasm: Config.WasmFile is checked against the pin and copied
// into the cache, and New fails with ErrNoWasm when the children are
// this binary, built without the module, and none was given or set up.
func TestPrepareWasm(t *testing.T) {
	module, err := os.ReadFile("../child/engine/wasm/quickjs.wasm")
	if err != nil {
		t.Skipf("the QuickJS module is missing (%v): make wasm", err)
	}
	dir := t.TempDir()
	wrong := filepath.Join(dir, "wrong.wasm")
	os.WriteFile(wrong, module[1:], 0o644)
	cache := filepath.Join(dir, "cache")
	cfg := Config{CacheDir: cache, WasmFile: wrong, Binary: "/bin/sh"}
	if err := prepareWasm(&cfg); err == nil || !strings.Contains(err.Error(), runtimefiles.WasmSHA256) {
		t.Fatalf("a file that is not the pinned module: want the pin in the error, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, runtimefiles.WasmFile())); err == nil {
		t.Fatal("a refused module was copied into the cache")
	}

	// Another binary, nothing given or set up: its compile child says.
	cfg.WasmFile = ""
	if err := prepareWasm(&cfg); err != nil {
		t.Fatalf("nothing given, another binary: want it left to the compile child, got %v", err)
	}
	// This binary, built without the module: ErrNoWasm, naming the
	// three ways.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	defer func(f func() bool) { selfEmbedsWasm = f }(selfEmbedsWasm)
	selfEmbedsWasm = func() bool { return false }
	cfg.Binary = self
	err = prepareWasm(&cfg)
	if !errors.Is(err, ErrNoWasm) || !strings.Contains(err.Error(), "warden setup") || !strings.Contains(err.Error(), "WasmFile") {
		t.Fatalf("this binary without a module: want ErrNoWasm naming the ways, got %v", err)
	}
	good := filepath.Join(dir, "quickjs.wasm")
	os.WriteFile(good, module, 0o644)
	cfg.WasmFile = good
	if err := prepareWasm(&cfg); err != nil {
		t.Fatalf("a good file: %v", err)
	}
	fi, err := os.Stat(filepath.Join(cache, runtimefiles.WasmFile()))
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("the module in the cache: %v (%v)", fi, err)
	}
	// Set up once, known from then on.
	cfg.WasmFile = ""
	if err := prepareWasm(&cfg); err != nil {
		t.Fatalf("a set-up module, this binary: %v", err)
	}
}

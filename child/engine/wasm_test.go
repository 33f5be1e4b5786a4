package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/internal/runtimefiles"
)

// TestWasmFor: where an engine finds the QuickJS module in a binary
// built without it, and what it says when it finds none or a wrong one.
func TestWasmFor(t *testing.T) {
	if embeddedWasm == nil {
		t.Skip("this test binary has no embedded module to stand in for a file (make wasm)")
	}
	good := embeddedWasm
	t.Cleanup(func() { embeddedWasm = good })
	embeddedWasm = nil // as in a build from the module alone

	dir := t.TempDir()
	if _, err := wasmFor(Config{CacheDir: dir}); !errors.Is(err, runtimefiles.ErrNoWasm) || !strings.Contains(err.Error(), "warden setup") {
		t.Fatalf("empty cache: want ErrNoWasm naming warden setup, got %v", err)
	}
	if _, err := wasmFor(Config{}); !errors.Is(err, runtimefiles.ErrNoWasm) {
		t.Fatalf("no cache, no file: want ErrNoWasm, got %v", err)
	}
	setUp := filepath.Join(dir, runtimefiles.WasmFile())
	os.MkdirAll(filepath.Dir(setUp), 0o755)
	os.WriteFile(setUp, good, 0o644)
	if b, err := wasmFor(Config{CacheDir: dir}); err != nil || len(b) != len(good) {
		t.Fatalf("the set-up module: %v", err)
	}
	wrong := filepath.Join(dir, "wrong.wasm")
	os.WriteFile(wrong, good[:len(good)-1], 0o644)
	if _, err := wasmFor(Config{CacheDir: dir, WasmFile: wrong}); err == nil || !strings.Contains(err.Error(), runtimefiles.WasmSHA256) {
		t.Fatalf("a file that is not the pinned module: want the pin in the error, got %v", err)
	}
	if _, err := wasmFor(Config{WasmFile: filepath.Join(dir, "missing.wasm")}); err == nil || errors.Is(err, runtimefiles.ErrNoWasm) {
		t.Fatalf("a named file that is missing: want its own error, not ErrNoWasm, got %v", err)
	}
	link := filepath.Join(dir, "link.wasm")
	os.Symlink(setUp, link)
	if _, err := wasmFor(Config{WasmFile: link}); err == nil {
		t.Fatal("a symbolic link was followed")
	}
}

package engine

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
)

// The QuickJS wasm module is not committed: `make wasm` fetches it with
// `npm pack quickjs-wasi@3.7.0`, checks its SHA-256 against WasmSHA256 and
// puts it at child/engine/wasm/quickjs.wasm. If this line fails to build
// ("pattern wasm/quickjs.wasm: no matching files found"), run: make wasm
//
//go:embed wasm/quickjs.wasm
var embeddedWasm []byte

// WasmPackage is the npm package the module comes from, pinned.
const WasmPackage = "quickjs-wasi@3.7.0"

// WasmSHA256 pins the embedded module (package/quickjs.wasm of WasmPackage).
// The Makefile checks the same value; see docs/quickjs-wasm.md.
const WasmSHA256 = "c0bd8f296e18cf074969f6401b9ecb72609a1323818ec2b9bf7a8f8d740d1363"

// FetchCommand is what a user runs when the module is missing or wrong.
const FetchCommand = "make wasm"

func checkWasm(b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("engine: the QuickJS wasm module is missing from this build; run %q and rebuild", FetchCommand)
	}
	if got := sha256Hex(b); got != WasmSHA256 {
		return fmt.Errorf("engine: the QuickJS wasm module has sha256 %s, want %s (%s); run %q and rebuild", got, WasmSHA256, WasmPackage, FetchCommand)
	}
	return nil
}

// sha256Hex is the hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/registry"
)

// testRegistryModules: a library, a TypeScript module importing it, and
// one with a top-level await and mutable state.
var testRegistryModules = []registry.Module{
	{Name: "lib", Source: `export const VERSION = "1.0"; export const obj = { n: 1 }; export function twice(n) { return n * 2; } export default { kind: "lib" };`},
	{Name: "typed", Source: "import { twice } from 'lib';\nexport const four: number = twice(2);\nexport enum E { A = 'a' }", TypeScript: true},
	{Name: "late", Source: `export const ready = await Promise.resolve("settled at init"); export const counter = new Map([["a", 1], ["b", 2]]); export const big = new Map(Array.from({ length: 5000 }, (_, i) => ["k" + i, i])); export const set = new Set(Array.from({ length: 3000 }, (_, i) => i * 7)); export const loadedAt = Date.now();`},
}

func registryEngine(t *testing.T, mods []registry.Module, snapshot bool) *Engine {
	t.Helper()
	ctx := context.Background()
	set, err := registry.New(mods, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(set)
	cfg := Config{CacheDir: testCacheDir, CloseOnContextDone: true, Registry: reg}
	e, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(ctx) })
	if !snapshot {
		return e
	}
	dir := t.TempDir()
	if err := e.WriteSnapshot(ctx, dir); err != nil {
		t.Fatalf("a snapshot with registered modules: %v", err)
	}
	path := filepath.Join(dir, filepath.FromSlash(SnapshotFile(reg.Digest())))
	cfg.Snapshot, cfg.SnapshotSHA256 = path, fileDigest(t, path)
	s, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(ctx) })
	return s
}

// TestRegistry: registered modules are imported by name, statically and
// dynamically, by code in either form, run with init's rights only, are
// the same after a snapshot's restore, and a restored instance's changes
// to them stay its own.
func TestRegistry(t *testing.T) {
	for _, snap := range []bool{false, true} {
		name := "init"
		if snap {
			name = "snapshot"
		}
		t.Run(name, func(t *testing.T) {
			e := registryEngine(t, testRegistryModules, snap)
			runIn := func(req contract.Request) contract.Result {
				return e.Execute(context.Background(), req, RunOptions{})
			}
			check(t, runIn(contract.Request{Code: "import lib, { twice, VERSION } from 'lib';\nimport { four, E } from 'typed';\nimport { ready, counter } from 'late';\nexport default [lib.kind, twice(21), VERSION, four, E.A, ready, counter.get('b')];"}),
				want{value: `["lib",42,"1.0",4,"a","settled at init",2]`})
			check(t, runIn(contract.Request{Code: `const m = await import("lib"); return m.twice(4);`}), want{value: `8`})
			// Maps and Sets built at init still find their keys in a
			// restored instance, whose hash seed was drawn again.
			check(t, runIn(contract.Request{Code: `const { big, set } = await import("late"); big.set("new", -1); return [big.get("k4321"), big.has("k5000"), set.has(7 * 2999), set.has(1), big.get("new"), big.size];`}), want{value: `[4321,false,true,false,-1,5001]`})
			// A module's load time, held at init, is the instance's own.
			check(t, runIn(contract.Request{Code: `const { loadedAt } = await import("late"); const d = Date.now() - loadedAt; return d >= 0 && d < 5000;`}), want{value: `true`})
			// One execution mutates the module's objects; the next, in a
			// fresh instance, sees them as init left them.
			check(t, runIn(contract.Request{Code: `import * as lib from "lib"; lib.obj.n = 99; lib.default.kind = "patched"; export default [lib.obj.n, lib.default.kind];`}), want{value: `[99,"patched"]`})
			check(t, runIn(contract.Request{Code: `import * as lib from "lib"; export default [lib.obj.n, lib.default.kind];`}), want{value: `[1,"lib"]`})
			// The allow-list, and the shadowing of a registered name.
			res := runIn(contract.Request{Code: `import { twice } from "lib"; export default twice(1);`, Imports: []string{"typed"}})
			check(t, res, want{errType: contract.UserCodeError, msg: `cannot import module "lib": it is registered, but not among the modules this execution may import (typed)`})
			check(t, runIn(contract.Request{Code: `import { twice } from "lib"; export default twice(1);`, Imports: []string{"lib"}}), want{value: `2`})
			check(t, runIn(contract.Request{Code: `return (await import("late")).ready`, Imports: []string{}}), want{errType: contract.UserCodeError, msg: "(none)"})
			check(t, runIn(contract.Request{Code: `return 1`, Modules: map[string]string{"lib": "export default 0"}}), want{errType: contract.ContractError, msg: `module "lib" is registered`})
		})
	}
}

// TestRegistryRefused: a registered module that imports a name outside
// the registry, or whose top level reaches for a host function, makes
// init fail with its name, before any untrusted code could exist.
func TestRegistryRefused(t *testing.T) {
	tests := []struct {
		name string
		mods []registry.Module
		msg  string
	}{
		{"import outside", []registry.Module{{Name: "a", Source: `import fs from "fs"; export default fs;`}}, `cannot find module "fs": a registered module imports only registered modules (a)`},
		{"console at top level", []registry.Module{{Name: "a", Source: `console.log("hi"); export default 1;`}}, "host functions are not available"},
		{"throws", []registry.Module{{Name: "a", Source: `throw new TypeError("broken library");`}}, "TypeError: broken library"},
		{"bad TypeScript", []registry.Module{{Name: "a", Source: `let x: = 1;`, TypeScript: true}}, `registered module "a"`},
		{"never settles", []registry.Module{{Name: "a", Source: `await new Promise(() => {}); export default 1;`}}, "never settles"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := registryEngine(t, tt.mods, false)
			_, err := e.NewVM(context.Background(), contract.DefaultLimits.MemoryBytes)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("want an error with %q, got %v", tt.msg, err)
			}
		})
	}
	if _, err := registry.New([]registry.Module{{Name: "a"}, {Name: "a"}}, 0); err == nil {
		t.Fatal("a name given twice was taken")
	}
	if _, err := registry.New([]registry.Module{{Name: "a\x00b"}}, 0); err == nil {
		t.Fatal("a name with a NUL was taken")
	}
}

// TestRegistryFile: a registry written to a file is read back only when
// an instance evaluates it, and refused when it is not the one named.
func TestRegistryFile(t *testing.T) {
	set, err := registry.New(testRegistryModules, 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry(set)
	b, err := set.Encode()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "registry.json")
	writeFile(t, path, b)
	same := RegistryFromFile(path, reg.Digest(), reg.Names(), reg.HeapBytes())
	if mods, err := same.modules(); err != nil || len(mods) != len(testRegistryModules) {
		t.Fatalf("read back: %d modules, %v", len(mods), err)
	}
	var f registry.Set
	json.Unmarshal(b, &f)
	f.Modules[0].Source += " "
	b, _ = json.Marshal(&f)
	writeFile(t, path, b)
	if _, err := RegistryFromFile(path, reg.Digest(), reg.Names(), reg.HeapBytes()).modules(); err == nil || !strings.Contains(err.Error(), "not the one the supervisor recorded") {
		t.Fatalf("a changed registry file: %v", err)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRegistrySnapshotKey: a snapshot records the registered modules it
// holds: another set (or none) has another file, and a snapshot made
// with one set is refused by an engine with another.
func TestRegistrySnapshotKey(t *testing.T) {
	ctx := context.Background()
	a, _ := registry.New(testRegistryModules, 8<<20)
	b, _ := registry.New(testRegistryModules[:1], 8<<20)
	if SnapshotFile(a.Digest()) == SnapshotFile(b.Digest()) || SnapshotFile(a.Digest()) == SnapshotFile("") {
		t.Fatal("two registries share a snapshot file")
	}
	e, err := New(ctx, Config{CacheDir: testCacheDir, Registry: NewRegistry(a)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	dir := t.TempDir()
	if err := e.WriteSnapshot(ctx, dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.FromSlash(SnapshotFile(a.Digest())))
	other, err := New(ctx, Config{CacheDir: testCacheDir, Registry: NewRegistry(b), Snapshot: path, SnapshotSHA256: fileDigest(t, path)})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	if _, err := other.NewVM(ctx, contract.DefaultLimits.MemoryBytes); !errors.Is(err, ErrSnapshotRefused) {
		t.Fatalf("a snapshot of another registry: %v", err)
	}
}

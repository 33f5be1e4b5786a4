package tests

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// The registry under a real supervisor: modules are evaluated into the
// heap snapshot by the compile child, and each child has its own copy.

var registryTestModules = map[string]string{
	"lib":        `export const VERSION = "4.17.21"; export const state = { calls: 0 }; export function chunk(xs, n) { const out = []; for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n)); return out; } export default { VERSION };`,
	"helpers.ts": "import { chunk } from 'lib';\nexport const pairs = (xs: number[]): number[][] => chunk(xs, 2);",
}

func execute(t *testing.T, s *supervisor.Supervisor, req contract.Request) contract.Result {
	t.Helper()
	res, _ := s.Execute(context.Background(), req, nil)
	return res
}

// TestRegistrySupervised: code imports registered modules by name (a
// TypeScript one importing another), statically and dynamically; what
// one execution does to a module's objects, the next never sees; an
// allow-list and a request module with a registered name are refused.
func TestRegistrySupervised(t *testing.T) {
	s := newSupervisor(t, func(c *supervisor.Config) { c.Modules = registryTestModules })
	res := execute(t, s, contract.Request{Code: "import lib from 'lib';\nimport { pairs } from 'helpers.ts';\nexport default [lib.VERSION, pairs([1, 2, 3])];"})
	if !res.OK || string(res.Value) != `["4.17.21",[[1,2],[3]]]` {
		t.Fatalf("import: %s %+v", res.Value, res.Error)
	}
	// Mutated by one execution, read by the next: each child's heap is
	// its own copy of the snapshot's.
	for i := 0; i < 3; i++ {
		res = execute(t, s, contract.Request{Code: `const lib = await import("lib"); lib.state.calls++; lib.default.VERSION = "patched"; const before = lib.chunk; return [lib.state.calls, lib.default.VERSION, typeof before];`})
		if !res.OK || string(res.Value) != `[1,"patched","function"]` {
			t.Fatalf("execution %d saw another's changes: %s %+v", i, res.Value, res.Error)
		}
	}
	res = execute(t, s, contract.Request{Code: `return (await import("lib")).VERSION`, Imports: []string{"helpers.ts"}})
	if res.OK || !strings.Contains(res.Error.Message, `not among the modules this execution may import (helpers.ts)`) {
		t.Fatalf("allow-list: %s %+v", res.Value, res.Error)
	}
	res = execute(t, s, contract.Request{Code: `return 1`, Modules: map[string]string{"lib": "export default 0"}})
	if res.OK || res.Error.Type != contract.ContractError {
		t.Fatalf("shadowing: %s %+v", res.Value, res.Error)
	}
	if mods := s.Modules(); len(mods) != 2 || mods[0].Name != "helpers.ts" || !mods[0].TypeScript || len(mods[1].SHA256) != 64 {
		t.Fatalf("Modules: %+v", mods)
	}
}

// TestRegistryRefusedAtNew: a registered module that imports a name
// outside the registry, or does not parse, fails New, naming it.
func TestRegistryRefusedAtNew(t *testing.T) {
	for name, mods := range map[string]map[string]string{
		`cannot find module "fs"`: {"a": `import fs from "fs"; export default fs;`},
		`"b.ts"`:                  {"b.ts": `let x: = 1;`},
	} {
		s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, Modules: mods, PoolSize: 1})
		if err == nil {
			s.Close(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("want New to fail with %q, got %v", name, err)
		}
	}
}

// TestRegistryDir: a directory of modules, named by their files.
func TestRegistryDir(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"one.js": `export default 1;`, "two.mjs": `import one from "one"; export default one + 1;`, "three.ts": `import two from "two"; export default (two as number) + 1;`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSupervisor(t, func(c *supervisor.Config) { c.ModulesDir = dir })
	res := execute(t, s, contract.Request{Code: `import three from "three"; export default three;`})
	if !res.OK || string(res.Value) != `3` {
		t.Fatalf("%s %+v", res.Value, res.Error)
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "link.js"))
	if s, err := supervisor.New(supervisor.Config{CacheDir: cacheDir, ModulesDir: dir}); err == nil || !strings.Contains(err.Error(), "link.js") {
		if err == nil {
			s.Close(context.Background())
		}
		t.Fatalf("a symbolic link in the directory: %v", err)
	}
}

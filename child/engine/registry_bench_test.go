package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/median"
	"github.com/wardenhq/warden/internal/registry"
)

// BenchmarkImport: what importing a large library costs an execution
// when it is registered (evaluated into the heap snapshot) against
// when the request carries it as a module (parsed and evaluated every
// time). Each execution restores a fresh instance from the snapshot, as
// a child does; "none" is the same execution importing nothing, so the
// import's cost is each case's time less none's; run-ms is the
// execution's own wall time (Stats.WallMS, the median), without the
// restore. The library is zod's
// bundle from `make modules` (573 KiB).
func BenchmarkImport(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "..", "modules", "zod.js"))
	if err != nil {
		b.Skipf("the curated modules are not built (make modules): %v", err)
	}
	set, err := registry.New([]registry.Module{{Name: "zod", Source: string(src)}}, 32<<20)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	reg := NewRegistry(set)
	e, err := New(ctx, Config{CacheDir: testCacheDir, Registry: reg})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close(ctx)
	dir := b.TempDir()
	if err := e.WriteSnapshot(ctx, dir); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, filepath.FromSlash(SnapshotFile(reg.Digest())))
	snap, err := New(ctx, Config{CacheDir: testCacheDir, Registry: reg, Snapshot: path, SnapshotSHA256: fileDigestB(b, path)})
	if err != nil {
		b.Fatal(err)
	}
	defer snap.Close(ctx)
	limits := contract.DefaultLimits
	limits.CodeBytes = 1 << 20
	limits.MemoryBytes = 64 << 20
	cases := []struct {
		name string
		req  contract.Request
	}{
		{"none", contract.Request{Code: `export default 1;`}},
		{"registered", contract.Request{Code: `import { z } from "zod"; export default typeof z.object;`}},
		{"per-execution", contract.Request{Code: `import { z } from "./zod.js"; export default typeof z.object;`, Modules: map[string]string{"./zod.js": string(src)}}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			c.req.Limits = limits
			var runs []float64
			for b.Loop() {
				vm, err := snap.NewVM(ctx, limits.MemoryBytes)
				if err != nil {
					b.Fatal(err)
				}
				res := vm.Run(ctx, c.req, RunOptions{})
				vm.Close(ctx)
				if !res.OK {
					b.Fatalf("%+v", res.Error)
				}
				runs = append(runs, res.Stats.WallMS)
			}
			// The execution alone, without the instance's restore.
			b.ReportMetric(median.Of(runs), "run-ms")
		})
	}
}

func fileDigestB(b *testing.B, path string) string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return sha256Hex(data)
}

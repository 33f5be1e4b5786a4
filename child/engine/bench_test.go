package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// The benchmarks measure both settings of CloseOnContextDone: off is how
// a supervised child runs, on is the in-process mode.
var benchModes = []struct {
	name  string
	close bool
}{{"close=off", false}, {"close=on", true}}

func benchEngine(b *testing.B, closeOnDone bool, cacheDir string) *Engine {
	b.Helper()
	e, err := New(context.Background(), Config{CacheDir: cacheDir, CloseOnContextDone: closeOnDone})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close(context.Background()) })
	return e
}

func BenchmarkCompileCold(b *testing.B) {
	for i := 0; i < b.N; i++ {
		e, err := New(context.Background(), Config{})
		if err != nil {
			b.Fatal(err)
		}
		e.Close(context.Background())
	}
}

func BenchmarkCompileFromFileCache(b *testing.B) {
	dir := b.TempDir()
	e, err := New(context.Background(), Config{CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	e.Close(context.Background())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, err := New(context.Background(), Config{CacheDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		e.Close(context.Background())
	}
}

func BenchmarkInstantiateInit(b *testing.B) {
	e := benchEngine(b, false, "")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vm, err := e.NewVM(ctx, contract.DefaultLimits.MemoryBytes)
		if err != nil {
			b.Fatal(err)
		}
		vm.Close(ctx)
	}
}

// benchRun measures Run alone: each iteration gets a VM prepared with
// the timer stopped, as a prespawned child has one ready.
func benchRun(b *testing.B, req contract.Request, opts RunOptions) {
	for _, m := range benchModes {
		b.Run(m.name, func(b *testing.B) {
			e := benchEngine(b, m.close, "")
			ctx := context.Background()
			limits, _, err := contract.Resolve(req.Limits, contract.DefaultLimits, contract.DefaultCaps)
			if err != nil {
				b.Fatal(err)
			}
			req.Limits = limits
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				vm, err := e.NewVM(ctx, limits.MemoryBytes)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res := vm.Run(ctx, req, opts)
				b.StopTimer()
				if !res.OK {
					b.Fatal(res.Error)
				}
				vm.Close(ctx)
				b.StartTimer()
			}
		})
	}
}

func BenchmarkTrivialEval(b *testing.B) {
	benchRun(b, contract.Request{Code: "return input.a + input.b", Input: json.RawMessage(`{"a":1,"b":2}`)}, RunOptions{})
}

func BenchmarkSumLoop1e6(b *testing.B) {
	benchRun(b, contract.Request{Code: "let s = 0; for (let i = 1; i <= 1e6; i++) s += i; return s",
		Limits: contract.Limits{Timeout: 30e9}}, RunOptions{})
}

func BenchmarkJSON1MB(b *testing.B) {
	var rows []string
	for i := 0; len(strings.Join(rows, ",")) < 1<<20; i++ {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"name":"item %d","tags":["a","b","c"],"score":%d.5}`, i, i, i))
	}
	input := json.RawMessage("[" + strings.Join(rows, ",") + "]")
	b.SetBytes(int64(len(input)))
	benchRun(b, contract.Request{Code: "return input", Input: input,
		Limits: contract.Limits{Timeout: 30e9, MemoryBytes: 64 << 20, OutputBytes: 4 << 20}}, RunOptions{})
}

func BenchmarkSHA256PureJS100KB(b *testing.B) {
	src, err := os.ReadFile("testdata/sha256.js")
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, contract.Request{Code: string(src) + "\nreturn sha256js('x'.repeat(100 * 1024))",
		Limits: contract.Limits{Timeout: 60e9, MemoryBytes: 64 << 20}}, RunOptions{})
}

func BenchmarkHostRequest1000(b *testing.B) {
	h := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		return args, nil
	}
	benchRun(b, contract.Request{Code: "let s = 0; for (let i = 0; i < 1000; i++) s += await host.request('echo', i); return s",
		Limits: contract.Limits{Timeout: 30e9}}, RunOptions{Handler: h})
}

// BenchmarkEngineRangeErrors10000: 10,000 RangeErrors the engine throws
// and the guest catches, each one seen by the throw listener
// (binding_throws.go), none of them a limit.
func BenchmarkEngineRangeErrors10000(b *testing.B) {
	benchRun(b, contract.Request{Code: "let n = 0; for (let i = 0; i < 10000; i++) { try { new Array(-1) } catch (e) { n++ } } return n",
		Limits: contract.Limits{Timeout: 30e9}}, RunOptions{})
}

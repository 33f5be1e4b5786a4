package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/wardenhq/warden/contract"
)

// TestLimits checks each limit at, just under and just over its value.
func TestLimits(t *testing.T) {
	t.Run("code", func(t *testing.T) {
		const limit = 1000
		body := "return 1;"
		at := body + strings.Repeat(" ", limit-len(body))
		check(t, run(t, contract.Request{Code: at, Limits: contract.Limits{CodeBytes: limit}}, RunOptions{}), want{value: "1"})
		check(t, run(t, contract.Request{Code: at[:limit-1], Limits: contract.Limits{CodeBytes: limit}}, RunOptions{}), want{value: "1"})
		check(t, run(t, contract.Request{Code: at + " ", Limits: contract.Limits{CodeBytes: limit}}, RunOptions{}),
			want{errType: contract.ResourceError, kind: contract.KindCode})
		// Modules count towards the code size.
		check(t, run(t, contract.Request{Code: at, Modules: map[string]string{"m": "x"}, Limits: contract.Limits{CodeBytes: limit}}, RunOptions{}),
			want{errType: contract.ResourceError, kind: contract.KindCode})
	})
	t.Run("output", func(t *testing.T) {
		const limit = 10_000
		str := func(n int) string { return fmt.Sprintf("return 'x'.repeat(%d)", n-2) } // JSON adds two quotes
		check(t, run(t, contract.Request{Code: str(limit), Limits: contract.Limits{OutputBytes: limit}}, RunOptions{}), want{value: `"` + strings.Repeat("x", limit-2) + `"`})
		check(t, run(t, contract.Request{Code: str(limit - 1), Limits: contract.Limits{OutputBytes: limit}}, RunOptions{}), want{value: `"` + strings.Repeat("x", limit-3) + `"`})
		check(t, run(t, contract.Request{Code: str(limit + 1), Limits: contract.Limits{OutputBytes: limit}}, RunOptions{}),
			want{errType: contract.ResourceError, kind: contract.KindOutput})
	})
	t.Run("memory", func(t *testing.T) {
		const limit = 8 << 20
		alloc := func(n int) string { return fmt.Sprintf("const b = new Uint8Array(%d); b.fill(1); return b.length", n) }
		// The runtime itself holds a few hundred KiB of the heap.
		check(t, run(t, contract.Request{Code: alloc(limit - 1<<20), Limits: contract.Limits{MemoryBytes: limit}}, RunOptions{}), want{value: strconv.Itoa(limit - 1<<20)})
		check(t, run(t, contract.Request{Code: alloc(limit - 600<<10), Limits: contract.Limits{MemoryBytes: limit}}, RunOptions{}), want{value: strconv.Itoa(limit - 600<<10)})
		check(t, run(t, contract.Request{Code: alloc(limit), Limits: contract.Limits{MemoryBytes: limit}}, RunOptions{}),
			want{errType: contract.ResourceError, kind: contract.KindMemory})
		// A higher limit lets the same allocation through.
		check(t, run(t, contract.Request{Code: alloc(limit), Limits: contract.Limits{MemoryBytes: 2 * limit}}, RunOptions{}), want{value: strconv.Itoa(limit)})
	})
	t.Run("stack", func(t *testing.T) {
		const limit = 128 << 10
		lim := contract.Limits{StackBytes: limit}
		depth := deepestRecursion(t, lim)
		rec := func(n int) string { return fmt.Sprintf(recursionTo, false, "0", n) }
		if depth < 100 {
			t.Fatalf("a %d-byte stack takes only %d frames", limit, depth)
		}
		check(t, run(t, contract.Request{Code: rec(depth * 9 / 10), Limits: lim}, RunOptions{}), want{value: strconv.Itoa(depth * 9 / 10)})
		check(t, run(t, contract.Request{Code: rec(depth * 11 / 10), Limits: lim}, RunOptions{}), want{errType: contract.ResourceError, kind: contract.KindStack})
		// The default (and maximum) stack takes the deeper recursion.
		check(t, run(t, contract.Request{Code: rec(depth * 11 / 10)}, RunOptions{}), want{value: strconv.Itoa(depth * 11 / 10)})
	})
	t.Run("timeout", func(t *testing.T) {
		busy := func(ms int) string {
			return fmt.Sprintf("const end = Date.now() + %d; while (Date.now() < end) {} return 1", ms)
		}
		lim := contract.Limits{Timeout: 300 * time.Millisecond}
		check(t, run(t, contract.Request{Code: busy(100), Limits: lim}, RunOptions{}), want{value: "1"})
		check(t, run(t, contract.Request{Code: busy(600), Limits: lim}, RunOptions{}), want{errType: contract.TimeoutError})
	})
	t.Run("clamped to caps", func(t *testing.T) {
		res := run(t, contract.Request{Code: "return 1", Limits: contract.Limits{Timeout: time.Hour, MemoryBytes: 1 << 40, OutputBytes: 1 << 40}}, RunOptions{})
		check(t, res, want{value: "1"})
		caps := contract.DefaultCaps
		if res.Limits.Timeout != caps.Timeout || res.Limits.MemoryBytes != caps.MemoryBytes || res.Limits.OutputBytes != caps.OutputBytes {
			t.Fatalf("limits in force %+v, want caps %+v", res.Limits, caps)
		}
		if strings.Join(res.Clamped, ",") != "timeout_ms,memory_bytes,output_bytes" {
			t.Fatalf("clamped: %v", res.Clamped)
		}
	})
}

// TestSHA256MatchesGo: sha256 of any JS string equals Go's crypto/sha256
// of its UTF-8 bytes, where a lone surrogate encodes as U+FFFD (what
// utf16.Decode and the WHATWG TextEncoder do).
func TestSHA256MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1000
	var units [][]uint16
	var input strings.Builder
	input.WriteString("[")
	for i := 0; i < n; i++ {
		var u []uint16
		for j := rng.IntN(40); j > 0; j-- {
			switch rng.IntN(6) {
			case 0, 1:
				u = append(u, uint16(0x20+rng.IntN(0x5f)))
			case 2:
				u = append(u, uint16(0x80+rng.IntN(0xD800-0x80)))
			case 3: // astral: a proper pair
				r1, r2 := utf16.EncodeRune(rune(0x10000 + rng.IntN(0x100000)))
				u = append(u, uint16(r1), uint16(r2))
			case 4: // lone high surrogate
				u = append(u, uint16(0xD800+rng.IntN(0x400)))
			case 5: // lone low surrogate
				u = append(u, uint16(0xDC00+rng.IntN(0x400)))
			}
		}
		if i == 0 {
			u = nil // the empty string
		}
		units = append(units, u)
		if i > 0 {
			input.WriteString(",")
		}
		input.WriteString(`"`)
		for _, c := range u {
			fmt.Fprintf(&input, `\u%04x`, c)
		}
		input.WriteString(`"`)
	}
	input.WriteString("]")
	res := run(t, contract.Request{Code: "return input.map(s => sha256(s))", Input: json.RawMessage(input.String())}, RunOptions{})
	if !res.OK {
		t.Fatal(res.Error)
	}
	var got []string
	if err := json.Unmarshal(res.Value, &got); err != nil || len(got) != n {
		t.Fatalf("decode: %v (%d)", err, len(got))
	}
	for i, u := range units {
		sum := sha256.Sum256([]byte(string(utf16.Decode(u))))
		if want := hex.EncodeToString(sum[:]); got[i] != want {
			t.Fatalf("string %d %x: guest %s, Go %s", i, u, got[i], want)
		}
	}
}

// TestSequentialExecutions: 500 executions, each on a fresh instance,
// without the Go heap or RSS growing past a bound.
func TestSequentialExecutions(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 100
	}
	code := "const a = []; for (let i = 0; i < 1000; i++) a.push({i}); globalThis.leak = (globalThis.leak || 0) + 1; console.log(leak); return [a.length, leak]"
	measure := func() (heap, rss uint64) {
		// Twice: the first cycle may still see the last VM's memory.
		runtime.GC()
		runtime.GC()
		debug.FreeOSMemory()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc, rssBytes()
	}
	var heap0, rss0 uint64
	for i := 0; i < n; i++ {
		res := runCode(t, code)
		if !res.OK || string(res.Value) != "[1000,1]" {
			t.Fatalf("execution %d: %+v %s", i, res.Error, res.Value)
		}
		if i == 49 {
			heap0, rss0 = measure()
		}
	}
	heap1, rss1 := measure()
	t.Logf("after 50: heap %d KiB rss %d KiB; after %d: heap %d KiB rss %d KiB", heap0>>10, rss0>>10, n, heap1>>10, rss1>>10)
	const heapBound, rssBound = 16 << 20, 64 << 20
	if heap1 > heap0+heapBound {
		t.Fatalf("Go heap grew by %d KiB (bound %d KiB)", (heap1-heap0)>>10, heapBound>>10)
	}
	if rss1 > rss0+rssBound {
		t.Fatalf("RSS grew by %d KiB (bound %d KiB)", (rss1-rss0)>>10, rssBound>>10)
	}
}

func rssBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// TestNoHandlerContextLeak: the handler's context ends with the execution.
func TestHandlerContextEnds(t *testing.T) {
	var hctx context.Context
	h := func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		hctx = ctx
		return json.RawMessage("1"), nil
	}
	check(t, run(t, contract.Request{Code: "return await host.request('x')"}, RunOptions{Handler: h}), want{value: "1"})
	if hctx.Err() == nil {
		t.Fatal("handler context still live after the execution")
	}
}

// TestSHA256MatchesPureJS cross-checks the builtin against a JavaScript
// SHA-256 run in the same sandbox.
func TestSHA256MatchesPureJS(t *testing.T) {
	src, err := os.ReadFile("testdata/sha256.js")
	if err != nil {
		t.Fatal(err)
	}
	res := runCode(t, string(src)+"\nconst s = ['', 'abc', 'héllo wörld', '😀', '\\ud800x', 'x'.repeat(1000)]; return s.every(v => sha256js(v) === sha256(v))")
	check(t, res, want{value: "true"})
}

// VM.Run enforces the limits it is given and resolves nothing: limits
// that are not resolved (zero, negative, under the minimum) are refused,
// never filled in with defaults of the engine's own.
func TestVMRunRefusesUnresolvedLimits(t *testing.T) {
	ctx := context.Background()
	for name, l := range map[string]contract.Limits{
		"zero":            {},
		"zero timeout":    func() contract.Limits { l := contract.DefaultLimits; l.Timeout = 0; return l }(),
		"negative output": func() contract.Limits { l := contract.DefaultLimits; l.OutputBytes = -1; return l }(),
		"tiny memory":     func() contract.Limits { l := contract.DefaultLimits; l.MemoryBytes = 1000; return l }(),
	} {
		vm, err := testEngine.NewVM(ctx, contract.DefaultLimits.MemoryBytes)
		if err != nil {
			t.Fatal(err)
		}
		res := vm.Run(ctx, contract.Request{Code: "return 1", Limits: l}, RunOptions{})
		vm.Close(ctx)
		if res.OK || res.Error.Type != contract.ContractError {
			t.Errorf("%s: got ok=%v %s %+v, want a ContractError", name, res.OK, res.Value, res.Error)
		}
	}
}

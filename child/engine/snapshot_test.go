package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// writeTestSnapshot makes testEngine's snapshot (with prelude) in a
// fresh directory and returns its path and SHA-256.
func writeTestSnapshot(t testing.TB, prelude string) (path, digest string) {
	t.Helper()
	dir := t.TempDir()
	if err := testEngine.writeSnapshot(context.Background(), dir, prelude); err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(dir, filepath.FromSlash(snapshotFile(prelude)))
	return path, fileDigest(t, path)
}

func fileDigest(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256Hex(b)
}

func readTestHeader(path string) (*snapshotHeader, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseSnapshotHeader(b[:snapshotHeaderMax], snapshotKey(preludeSource()))
}

// snapshotEngine is an engine whose VMs are restored from the snapshot.
func snapshotEngine(t testing.TB, path, digest string) *Engine {
	t.Helper()
	e, err := New(context.Background(), Config{CacheDir: testCacheDir, CloseOnContextDone: true, Snapshot: path, SnapshotSHA256: digest})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(context.Background()) })
	return e
}

// TestSnapshotReseeds: every VM restored from one snapshot draws its own
// Math.random sequence and Map hash seed; the snapshot names the words
// it reseeds, and a reseed with a known value gives the sequence that
// value predicts.
func TestSnapshotReseeds(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	seqs := map[string]bool{}
	for i := 0; i < 3; i++ {
		res := e.Execute(context.Background(), contract.Request{Code: "return [Math.random(), Math.random(), Math.random()]"}, RunOptions{})
		if !res.OK {
			t.Fatalf("%+v", res.Error)
		}
		if seqs[string(res.Value)] {
			t.Fatalf("two VMs restored from one snapshot gave the same Math.random sequence %s", res.Value)
		}
		seqs[string(res.Value)] = true
	}
	h, err := readTestHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, fx := range h.Fixups {
		kinds[fx.Kind]++
	}
	if kinds[fixRandomState] != 1 || kinds[fixRandom] < 1 {
		t.Fatalf("want the Math.random state and the words init drew from entropy reseeded, got %+v", h.Fixups)
	}
	t.Logf("fixups %+v", h.Fixups)
}

// TestSnapshotRunsLikeInit: a VM restored from the snapshot behaves as
// one that ran init: the same globals, builtins, errors, stack and
// memory classification, logs, host calls and modules.
func TestSnapshotRunsLikeInit(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	handler := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"name":"` + name + `"}`), nil
	}
	for _, req := range []contract.Request{
		{Code: "return Object.getOwnPropertyNames(globalThis).sort()"},
		{Code: "return [String(console.log), typeof sha256, sha256('abc'), typeof host.request, typeof InternalError, typeof Error.prepareStackTrace]"},
		{Code: "console.log('a', {b: 1}); console.error('c'); return input", Input: json.RawMessage(`{"x":[1,2]}`)},
		{Code: "return await host.request('thing', {a: 1})"},
		{Code: "const m = new Map([[{}, 1], ['k', 2]]); const s = new Set([1, 'a']); return [m.get('k'), s.has('a'), m.size]"},
		{Code: "function f() { return f() + 1 } return f()"},
		// A long deadline: on a loaded machine the default 1 s could pass
		// before the memory runs out, on one side and not the other.
		{Code: "let a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length)", Limits: contract.Limits{Timeout: 20 * time.Second}},
		{Code: "throw new TypeError('boom')"},
		{Code: "}); (function () {"},
		{Code: "const {x} = await import('m'); return x", Modules: map[string]string{"m": "export const x = 7"}},
		// Other memory profiles than the one the snapshot was made in.
		{Code: "return 'x'.repeat(40 << 20).length", Limits: contract.Limits{MemoryBytes: 64 << 20}},
		{Code: "return 'x'.repeat(2 << 20).length", Limits: contract.Limits{MemoryBytes: contract.MinMemoryBytes}},
	} {
		want := testEngine.Execute(context.Background(), req, RunOptions{Handler: handler})
		got := e.Execute(context.Background(), req, RunOptions{Handler: handler})
		if got.OK != want.OK || string(got.Value) != string(want.Value) || !sameError(got.Error, want.Error) || len(got.Logs) != len(want.Logs) {
			t.Errorf("%q: restored %+v %s, init %+v %s", req.Code, got.Error, got.Value, want.Error, want.Value)
		}
	}
}

func sameError(a, b *contract.Error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Type == b.Type && a.Kind == b.Kind && a.Name == b.Name && a.Message == b.Message
}

// TestSnapshotIsolatesVMs: what one execution does to its globals and
// prototypes stays in its private copy of the memory: another VM from
// the same file never sees it, and the file is unchanged.
func TestSnapshotIsolatesVMs(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	res := e.Execute(context.Background(), contract.Request{Code: `globalThis.leak = 42; Object.prototype.polluted = 'yes';
let junk = []; for (let i = 0; i < 1e4; i++) junk.push('x' + i); Array.prototype.push = null; JSON.parse = () => 'owned'; return 1`}, RunOptions{})
	if !res.OK {
		t.Fatalf("%+v", res.Error)
	}
	res = e.Execute(context.Background(), contract.Request{Code: "return [typeof leak, ({}).polluted === undefined, typeof [].push, JSON.parse('1')]"}, RunOptions{})
	if string(res.Value) != `["undefined",true,"function",1]` {
		t.Fatalf("a second VM from the snapshot saw the first's changes: %+v %s", res.Error, res.Value)
	}
	if got := fileDigest(t, path); got != digest {
		t.Fatal("running a VM restored from the snapshot changed the file")
	}
}

// TestSnapshotRefused: a snapshot whose bytes are not the digest's, that
// is truncated, that another prelude made, or that does not fit the
// profile, is refused with ErrSnapshotRefused, and nothing runs.
func TestSnapshotRefused(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other, otherDigest := writeTestSnapshot(t, preludeSource()+"\n// another prelude\n")
	otherBytes, _ := os.ReadFile(other)
	tooBig := func() ([]byte, string) {
		// A well-formed snapshot that holds more memory than a 16 MiB
		// profile may have, with the digest to match.
		end := bytes.IndexByte(orig, 0)
		var h snapshotHeader
		if err := json.Unmarshal(orig[:end], &h); err != nil {
			t.Fatal(err)
		}
		h.Pages = maxPagesFor(16<<20) + 1
		block, _ := json.Marshal(h)
		b := append(block, make([]byte, snapshotHeaderSize-len(block))...)
		b = append(b, orig[snapshotHeaderSize:]...)
		b = append(b, make([]byte, int64(h.Pages)*wasmPage-int64(h.ImageStart)-int64(len(orig)-snapshotHeaderSize))...)
		sum := sha256.Sum256(b)
		return b, hex.EncodeToString(sum[:])
	}
	for _, tc := range []struct {
		name    string
		content func() ([]byte, string)
		want    string
	}{
		{"corrupted image", func() ([]byte, string) {
			b := bytes.Clone(orig)
			b[len(b)-wasmPage/2] ^= 0x40
			return b, digest
		}, "does not match the SHA-256"},
		{"corrupted header", func() ([]byte, string) {
			b := bytes.Clone(orig)
			b[bytes.Index(b, []byte(`"scratch":`))+13] ^= 0x01
			return b, digest
		}, "does not match the SHA-256"},
		{"truncated", func() ([]byte, string) { return orig[:len(orig)-4096], digest }, "truncated"},
		{"junk in the header's padding", func() ([]byte, string) {
			b := bytes.Clone(orig)
			b[snapshotHeaderSize-1] = 1
			sum := sha256.Sum256(b)
			return b, hex.EncodeToString(sum[:])
		}, "does not match the SHA-256"},
		{"another prelude's", func() ([]byte, string) { return otherBytes, otherDigest }, "made for another module, prelude or wazero build"},
		{"bigger than the profile", tooBig, "more than this profile's cap"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, sum := tc.content()
			bad := filepath.Join(t.TempDir(), "x.snap")
			if err := os.WriteFile(bad, b, 0o644); err != nil {
				t.Fatal(err)
			}
			e := snapshotEngine(t, bad, sum)
			_, err := e.NewVM(context.Background(), 16<<20)
			if !errors.Is(err, ErrSnapshotRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want the snapshot refused saying %q, got %v", tc.want, err)
			}
			t.Log(err)
		})
	}
}

// TestSnapshotDeterministic: two makes of the snapshot are the same
// bytes: what init drew from entropy is stored as zeros.
func TestSnapshotDeterministic(t *testing.T) {
	a, da := writeTestSnapshot(t, preludeSource())
	b, db := writeTestSnapshot(t, preludeSource())
	if da != db {
		t.Fatalf("two makes of the snapshot differ: %s and %s", a, b)
	}
}

// TestSnapshotNamedByItsKey: a snapshot's file name holds its key, so an
// engine with another prelude never even opens this one.
func TestSnapshotNamedByItsKey(t *testing.T) {
	a, b := snapshotFile(preludeSource()), snapshotFile(preludeSource()+" ")
	if a == b || !strings.HasPrefix(a, "snapshots/"+CacheFlavour()+"-") || SnapshotFile("") != a {
		t.Fatalf("snapshot files %q and %q", a, b)
	}
}

// TestXorshiftMatchesQuickJS: the Go model of Math.random that
// WriteSnapshot finds the state with is QuickJS's.
func TestXorshiftMatchesQuickJS(t *testing.T) {
	path, digest := writeTestSnapshot(t, preludeSource())
	e := snapshotEngine(t, path, digest)
	vm, err := e.NewVM(context.Background(), 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close(context.Background())
	var off uint32
	h, err := readTestHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range h.Fixups {
		if fx.Kind == fixRandomState {
			off = fx.Offset
		}
	}
	state, _ := vm.mod.Memory().ReadUint64Le(off)
	box, err := vm.evalCode("Math.random()", "<t>", 0)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := vm.mod.ExportedFunction("qjs_get_float64").Call(vm.callCtx, uint64(box))
	if got, want := math.Float64frombits(res[0]), mathRandomOf(xorshiftStep(state)); got != want {
		t.Fatalf("Math.random() = %v, the model says %v", got, want)
	}
}

// TestJSValueFloat64Boxing: the boxing the snapshot's clock fixup
// writes is QuickJS's. The word is one init left in the heap (a copy of
// performance.now's origin, 348.1 ms after the process started), and a
// JSValue boxes the float64 back to the same word.
func TestJSValueFloat64Boxing(t *testing.T) {
	const heapWord = 0xc07dc1d047a9e2bd
	f := unboxFloat64(heapWord)
	if f < 348 || f > 348.2 {
		t.Fatalf("unboxed %v, want about 348.1", f)
	}
	if boxFloat64(f) != heapWord {
		t.Fatalf("boxed back to %#x", boxFloat64(f))
	}
}

// snapshotFile is where the snapshot of an engine with prelude and no
// registry lives.
func snapshotFile(prelude string) string { return snapshotFileOfKey(snapshotKey(prelude)) }

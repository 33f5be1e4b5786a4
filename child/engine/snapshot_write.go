package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"
)

// WriteSnapshot makes this build's heap snapshot and puts it in cacheDir
// at SnapshotFile(), replacing any there (by rename: a child that has
// the old one mapped keeps it intact). It is for trusted code only, at a
// point where no untrusted code exists: the compile child.
//
// It refuses to write a snapshot it cannot show to be safe to share: it
// runs init twice and requires that every byte in which the two differ
// be one it can account for (the Math.random state, the other words
// drawn from entropy, the clock), so that a child that reseeds those
// holds what a fresh init could have produced; and it restores the
// written file through the children's own path, reseeds it with a known
// value, and checks that Math.random follows.
func (e *Engine) WriteSnapshot(ctx context.Context, cacheDir string) error {
	return e.writeSnapshot(ctx, cacheDir, preludeSource())
}

// initSample is one NewVM's result, copied, with what it drew from
// entropy and the clock.
type initSample struct {
	vm             *VM
	mem            []byte
	sp             uint32
	monoLo, monoHi float64
	realLo, realHi float64 // Date.now() before and after init
}

func (e *Engine) sampleInit(ctx context.Context, prelude string, beforeRegistry func(*VM) error) (*initSample, error) {
	lo, realLo := monotonicMS(), float64(time.Now().UnixMilli())
	vm, err := e.newVMThen(ctx, e.cfg.MemoryBytes, prelude, beforeRegistry)
	if err != nil {
		return nil, err
	}
	s := &initSample{vm: vm, monoLo: lo, monoHi: monotonicMS(), realLo: realLo, realHi: float64(time.Now().UnixMilli())}
	mem, _ := vm.mod.Memory().Read(0, vm.mod.Memory().Size())
	s.mem = bytes.Clone(mem)
	s.sp = uint32(vm.mod.ExportedGlobal("__stack_pointer").Get())
	return s, nil
}

func (e *Engine) writeSnapshot(ctx context.Context, cacheDir, prelude string) error {
	sampled := e.sampleSnapshot
	if len(e.cfg.Registry.Names()) > 0 {
		sampled = e.sampleRegistrySnapshot
	}
	a, h, stateOff, err := sampled(ctx, prelude)
	if err != nil {
		return fmt.Errorf("engine: snapshot: %w", err)
	}
	defer a.vm.Close(ctx)
	// Every child overwrites these words, so the file stores zeros there
	// and is the same bytes whoever makes it: supervisors sharing a
	// cache dir each run a compile child, and a snapshot that changed
	// under one's recorded digest would make its children refuse it.
	for _, fx := range h.Fixups {
		clear(a.mem[fx.Offset : fx.Offset+fx.Size])
	}
	h.ImageStart = imageStart(a.mem)
	h.Key = e.keyOf(prelude)
	block, err := json.Marshal(h)
	if err != nil || len(block) >= snapshotHeaderMax {
		return fmt.Errorf("engine: snapshot: header of %d bytes: %v", len(block), err)
	}
	block = append(block, make([]byte, snapshotHeaderSize-len(block))...)
	image := a.mem[h.ImageStart:]
	sum := sha256.New()
	sum.Write(block)
	sum.Write(image)
	digest := hex.EncodeToString(sum.Sum(nil))

	final := filepath.Join(cacheDir, filepath.FromSlash(snapshotFileOfKey(e.keyOf(prelude))))
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return fmt.Errorf("engine: snapshot: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), ".snapshot-*")
	if err != nil {
		return fmt.Errorf("engine: snapshot: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, err = tmp.Write(block)
	if err == nil {
		_, err = tmp.Write(image)
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = e.checkSnapshot(ctx, tmp.Name(), digest, prelude, stateOff)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), final)
	}
	if err != nil {
		return fmt.Errorf("engine: snapshot: %w", err)
	}
	return nil
}

// sampleSnapshot runs init twice and accounts for every byte in which
// the two differ: it gives the first run, the snapshot's header with
// its fixups, and where the Math.random state is.
func (e *Engine) sampleSnapshot(ctx context.Context, prelude string) (*initSample, *snapshotHeader, uint32, error) {
	a, err := e.sampleInit(ctx, prelude, nil)
	if err != nil {
		return nil, nil, 0, err
	}
	b, err := e.sampleInit(ctx, prelude, nil)
	if err != nil {
		a.vm.Close(ctx)
		return nil, nil, 0, err
	}
	defer b.vm.Close(ctx)
	h, err := snapshotLayout(a, b)
	if err == nil {
		// b is a scratch instance from here on: probing Math.random
		// moves it.
		var stateOff uint32
		if stateOff, err = findRandomState(b); err == nil {
			if h.Fixups, err = entropyFixups(a, b, stateOff); err == nil {
				return a, h, stateOff, nil
			}
		}
	}
	a.vm.Close(ctx)
	return nil, nil, 0, err
}

// sampleRegistrySnapshot is sampleSnapshot for an engine with
// registered modules. Their Maps and Sets are laid out by the hash
// seed, which differs run to run and cannot be drawn again once they
// hold keys. So the seed's words and the Math.random state are found
// on a pair of inits without the modules, then pinned (to values drawn
// from the registry's digest: the same whoever makes the snapshot) in
// a second pair before the modules are evaluated, which then lay memory
// out alike. The state is still drawn again by every child; the seed
// stays the pinned one (RATIONALE.md, "Registered modules in the
// snapshot").
func (e *Engine) sampleRegistrySnapshot(ctx context.Context, prelude string) (*initSample, *snapshotHeader, uint32, error) {
	skip := func(*VM) error { return errSkipRegistry }
	a, err := e.sampleInit(ctx, prelude, skip)
	if err != nil {
		return nil, nil, 0, err
	}
	defer a.vm.Close(ctx)
	b, err := e.sampleInit(ctx, prelude, skip)
	if err != nil {
		return nil, nil, 0, err
	}
	defer b.vm.Close(ctx)
	if _, err := snapshotLayout(a, b); err != nil {
		return nil, nil, 0, err
	}
	stateOff, err := findRandomState(b)
	if err != nil {
		return nil, nil, 0, err
	}
	fixups, err := entropyFixups(a, b, stateOff)
	if err != nil {
		return nil, nil, 0, err
	}
	pin := pinHashSeed(e.cfg.Registry.Digest(), stateOff, fixups)
	c, err := e.sampleInit(ctx, prelude, pin)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("registered modules: %w", err)
	}
	d, err := e.sampleInit(ctx, prelude, pin)
	if err != nil {
		c.vm.Close(ctx)
		return nil, nil, 0, fmt.Errorf("registered modules: %w", err)
	}
	defer d.vm.Close(ctx)
	h, err := snapshotLayout(c, d)
	if err == nil {
		if h.Fixups, err = entropyFixups(c, d, stateOff); err == nil {
			return c, h, stateOff, nil
		}
	}
	c.vm.Close(ctx)
	return nil, nil, 0, fmt.Errorf("with the registered modules evaluated: %w", err)
}

// pinHashSeed writes, before the registered modules are evaluated, a
// Math.random state and the hash seed it gives, both from the
// registry's digest, at the words fixups found.
func pinHashSeed(digest string, stateOff uint32, fixups []snapshotFixup) func(*VM) error {
	sum := sha256.Sum256([]byte("warden hash seed\n" + digest))
	state := binary.LittleEndian.Uint64(sum[:]) | 1
	return func(vm *VM) error {
		m := vm.mod.Memory()
		ok := m.WriteUint64Le(stateOff, state)
		for _, fx := range fixups {
			if fx.Kind == fixHashSeed {
				ok = ok && m.WriteUint32Le(fx.Offset, uint32(state*xorshiftMul))
			}
		}
		if !ok {
			return errors.New("engine: pin the hash seed: out of range")
		}
		return nil
	}
}

// snapshotLayout is the header of a snapshot of a, once b shows that
// init lays memory out the same way every time.
func snapshotLayout(a, b *initSample) (*snapshotHeader, error) {
	va, vb := a.vm, b.vm
	if len(a.mem) != len(b.mem) || a.sp != b.sp || va.stackTop != vb.stackTop || va.scratch != vb.scratch ||
		va.api != vb.api {
		return nil, errors.New("two inits laid memory out differently")
	}
	if a.sp != va.stackTop {
		return nil, fmt.Errorf("__stack_pointer is %d after init, not back at %d", a.sp, va.stackTop)
	}
	h := &snapshotHeader{
		Magic: snapshotMagic, Pages: uint32(len(a.mem) / wasmPage),
		StackTop: va.stackTop, StackPointer: a.sp,
		Scratch: va.scratch, APIRun: va.api.run, APITimers: va.api.timers, APIFinish: va.api.finish, APIDescribe: va.api.describe,
		APISetTimers: va.api.setTimers, APIRunModule: va.api.runModule, APIAnswer: va.api.answer,
	}
	return h, nil
}

// imageStart is where the file's image of mem begins: memory below the
// first page holding a non-zero byte (most of the shadow stack) stays
// out of the file, and a child gets fresh zero pages there.
// (mem is whole pages; at least its last page is in the image.)
func imageStart(mem []byte) uint32 {
	return min(uint32(firstNonZero(mem))/wasmPage*wasmPage, uint32(len(mem))-wasmPage)
}

// findRandomState finds QuickJS's Math.random state by behaviour: the
// one 8-byte word that a call of Math.random moves one xorshift64* step,
// to the state that gives the number it returned. s's instance is
// changed.
func findRandomState(s *initSample) (uint32, error) {
	got, err := s.vm.mathRandom("<snapshot-probe>")
	if err != nil {
		return 0, fmt.Errorf("probe Math.random: %w", err)
	}
	after, _ := s.vm.mod.Memory().Read(0, uint32(len(s.mem)))
	var found []uint32
	for o := 0; o+8 <= len(s.mem); o += 8 {
		x, y := binary.LittleEndian.Uint64(s.mem[o:]), binary.LittleEndian.Uint64(after[o:])
		if x != y && xorshiftStep(x) == y && mathRandomOf(y) == got {
			found = append(found, uint32(o))
		}
	}
	if len(found) != 1 {
		return 0, fmt.Errorf("found %d candidates for the Math.random state, want exactly 1: a snapshot that cannot be reseeded is not made", len(found))
	}
	return found[0], nil
}

// xorshiftStep is QuickJS's xorshift64* state update; mathRandomOf the
// number Math.random returns once the state is x.
func xorshiftStep(x uint64) uint64 {
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	return x
}

func mathRandomOf(state uint64) float64 {
	return math.Float64frombits(0x3ff<<52|(state*xorshiftMul)>>12) - 1
}

// entropyFixups accounts for every byte in which two inits differ: the
// Math.random state at stateOff; the bytes random_get handed out, where
// init stored them; QuickJS's Map hash seed, the low half of the
// xorshift64* output that left the state as it is; and float64 readings
// of the monotonic clock in ms, raw or held as a JSValue. Any other difference is an error: it
// would be state a child could not reseed.
func entropyFixups(a, b *initSample, stateOff uint32) ([]snapshotFixup, error) {
	covered := make([]bool, len(a.mem))
	var fixups []snapshotFixup
	add := func(off, size int, kind string) {
		for i := off; i < off+size; i++ {
			if covered[i] {
				return
			}
		}
		for i := off; i < off+size; i++ {
			covered[i] = true
		}
		fixups = append(fixups, snapshotFixup{Offset: uint32(off), Size: uint32(size), Kind: kind})
	}
	add(int(stateOff), 8, fixRandomState)
	seedA := uint32(binary.LittleEndian.Uint64(a.mem[stateOff:]) * xorshiftMul)
	seedB := uint32(binary.LittleEndian.Uint64(b.mem[stateOff:]) * xorshiftMul)
	for o := 0; o+4 <= len(a.mem); o += 4 {
		if binary.LittleEndian.Uint32(a.mem[o:]) == seedA && binary.LittleEndian.Uint32(b.mem[o:]) == seedB && seedA != seedB {
			add(o, 4, fixHashSeed)
		}
	}
	if len(a.vm.initEntropy) == len(b.vm.initEntropy) {
		for i, ca := range a.vm.initEntropy {
			cb := b.vm.initEntropy[i]
			if len(ca) < 4 || bytes.Equal(ca, cb) {
				continue
			}
			for from := 0; ; {
				j := bytes.Index(a.mem[from:], ca)
				if j < 0 {
					break
				}
				o := from + j
				if bytes.Equal(b.mem[o:o+len(cb)], cb) {
					add(o, len(ca), fixRandom)
				}
				from = o + 1
			}
		}
	}
	for o := 0; o+8 <= len(a.mem); o += 8 {
		if bytes.Equal(a.mem[o:o+8], b.mem[o:o+8]) {
			continue
		}
		fa := math.Float64frombits(binary.LittleEndian.Uint64(a.mem[o:]))
		fb := math.Float64frombits(binary.LittleEndian.Uint64(b.mem[o:]))
		if fa >= a.monoLo-1 && fa <= a.monoHi+1 && fb >= b.monoLo-1 && fb <= b.monoHi+1 {
			add(o, 8, fixMonotonicMS)
			continue
		}
		va := unboxFloat64(binary.LittleEndian.Uint64(a.mem[o:]))
		vb := unboxFloat64(binary.LittleEndian.Uint64(b.mem[o:]))
		if va >= a.monoLo-1 && va <= a.monoHi+1 && vb >= b.monoLo-1 && vb <= b.monoHi+1 {
			add(o, 8, fixMonotonicMSValue)
		} else if va >= a.realLo && va <= a.realHi && vb >= b.realLo && vb <= b.realHi {
			add(o, 8, fixRealtimeMSValue)
		}
	}
	var unknown []int
	for i := range a.mem {
		if a.mem[i] != b.mem[i] && !covered[i] {
			unknown = append(unknown, i)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("init leaves %d bytes that differ between two runs and that the engine cannot reseed (the first at %d): a snapshot would share them between children", len(unknown), unknown[0])
	}
	return fixups, nil
}

// checkSnapshot restores a VM from the file at path through the
// children's own path, with a known Math.random state, and checks that
// Math.random follows from it and that the prelude's runner works.
func (e *Engine) checkSnapshot(ctx context.Context, path, digest, prelude string, stateOff uint32) error {
	seed := bytes.Repeat([]byte{0x5a, 0x17, 0xc3, 0x08}, 16)
	vm, err := e.restoreVM(ctx, e.cfg.MemoryBytes, snapshotSource{path: path, digest: digest}, e.keyOf(prelude), bytes.NewReader(seed))
	if err != nil {
		return fmt.Errorf("restore the snapshot just written: %w", err)
	}
	defer vm.Close(ctx)
	state, ok := vm.mod.Memory().ReadUint64Le(stateOff)
	if !ok || state != binary.LittleEndian.Uint64(seed) {
		return fmt.Errorf("the restored Math.random state is %#x, want the seed given", state)
	}
	got, err := vm.mathRandom("<snapshot-check>")
	if err != nil {
		return fmt.Errorf("Math.random in the restored VM: %w", err)
	}
	if got != mathRandomOf(xorshiftStep(state)) {
		return errors.New("the restored VM's Math.random does not follow from the seed written")
	}
	return nil
}

// monotonicMS is the monotonic clock the module reads (wasiClockTimeGet),
// in ms.
func monotonicMS() float64 { return float64(monotonicNS()) / 1e6 }

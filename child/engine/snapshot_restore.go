package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"syscall"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// snapshotSource is where restoreVM finds a heap snapshot: the file at
// path, which must have the SHA-256 digest, or a sealed memory file the
// caller checked, whose bytes cannot change and are not hashed.
type snapshotSource struct {
	path   string
	digest string
	sealed *os.File
}

func (s snapshotSource) name() string {
	if s.sealed != nil {
		return s.sealed.Name()
	}
	return s.path
}

// restoreVM is NewVM from the heap snapshot src, made with the prelude
// whose snapshot key is key (preludeKey, snapshotKey). The instance's
// linear memory is the file's image mapped privately (copy-on-write):
// pages the guest only reads stay the page cache's (or the sealed
// file's), shared by every child. Nothing of init runs: not the module's
// _initialize, not qjs_init, not the prelude. What instantiation wrote
// into memory (the data segments) is replaced by the image; the stack
// pointer (the module's one mutable global) is set to the snapshot's;
// every word init drew from entropy is drawn again from entropy, and the
// clock origin is read again.
func (e *Engine) restoreVM(ctx context.Context, memoryBytes int64, src snapshotSource, key string, entropy io.Reader) (_ *VM, err error) {
	f, h, block, err := openSnapshot(src, key)
	if err != nil {
		return nil, err
	}
	if src.sealed == nil {
		// The mapping outlives the descriptor.
		defer f.Close()
	}
	path := src.name()
	maxPages := e.pagesFor(memoryBytes)
	if h.Pages > maxPages {
		return nil, fmt.Errorf("%w: %s holds %d pages of memory, more than this profile's cap of %d", ErrSnapshotRefused, path, h.Pages, maxPages)
	}
	mr, err := e.runtimeFor(ctx, memoryBytes)
	if err != nil {
		return nil, err
	}
	mem := &snapshotMemory{}
	mod, err := mr.runtime.InstantiateModule(experimental.WithMemoryAllocator(ctx, mem), mr.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("engine: instantiate: %w", err)
	}
	defer func() {
		if err != nil {
			mod.Close(ctx)
			err = fmt.Errorf("%s: %w", path, err)
		}
	}()
	if src.sealed != nil {
		err = mem.mapImage(f, h, true)
	} else {
		err = mem.mapVerified(f, h, block, src.digest)
	}
	if err != nil {
		return nil, err
	}
	if err := restoreShape(mod, h); err != nil {
		return nil, err
	}
	vm := &VM{
		mod: mod, memoryBytes: memoryBytes, maxPages: maxPages, stackTop: h.StackTop,
		reg: e.cfg.Registry, extraHeap: e.cfg.Registry.HeapBytes(),
		scratch: h.Scratch, messageKey: h.Scratch + 16,
		api: preludeAPI{run: h.APIRun, timers: h.APITimers, finish: h.APIFinish, describe: h.APIDescribe,
			setTimers: h.APISetTimers, runModule: h.APIRunModule, answer: h.APIAnswer},
	}
	if err := vm.resume(ctx, h.Fixups, entropy); err != nil {
		return nil, err
	}
	vm.fixups, vm.snapshotKey = h.Fixups, key
	return vm, nil
}

// openSnapshot opens the snapshot src (a sealed file is used as it is)
// and reads and checks its header (block, as read) against prelude's
// key and the file's size.
func openSnapshot(src snapshotSource, key string) (_ *os.File, _ *snapshotHeader, block []byte, err error) {
	f, path := src.sealed, src.name()
	if f == nil {
		if f, err = os.OpenFile(src.path, os.O_RDONLY|syscall.O_NOFOLLOW, 0); err != nil {
			return nil, nil, nil, fmt.Errorf("engine: heap snapshot: %w", err)
		}
		defer func() {
			if err != nil {
				f.Close()
			}
		}()
	}
	block = make([]byte, snapshotHeaderMax)
	if _, err := f.ReadAt(block, 0); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %s: read header: %v", ErrSnapshotRefused, path, err)
	}
	h, err := parseSnapshotHeader(block, key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	// The size is checked before anything is mapped: touching a mapped
	// page past the end of the file would kill the process (SIGBUS).
	if fi, err := f.Stat(); err != nil || fi.Size() != snapshotHeaderSize+h.imageLen() {
		return nil, nil, nil, fmt.Errorf("%w: %s: truncated or extended (%v)", ErrSnapshotRefused, path, err)
	}
	return f, h, block, nil
}

// mapVerified maps the image from f and checks the file (header block,
// padding, image) against digest.
func (m *snapshotMemory) mapVerified(f *os.File, h *snapshotHeader, block []byte, digest string) error {
	if err := m.mapImage(f, h, false); err != nil {
		return fmt.Errorf("engine: map heap snapshot: %w", err)
	}
	// The digest is read through the mapping itself, which also makes
	// every page of the image present: peakStack skips only pages the
	// kernel says were never touched, which holds for the fresh zero
	// pages below the image but not for a file's. (A sealed snapshot's
	// mapping is populated instead: mapImage.)
	sum := sha256.New()
	sum.Write(block)
	sum.Write(zeroPad[:])
	sum.Write(m.buf[h.ImageStart : int64(h.Pages)*wasmPage])
	if got := hex.EncodeToString(sum.Sum(nil)); got != digest {
		return fmt.Errorf("%w: it does not match the SHA-256 the supervisor recorded", ErrSnapshotRefused)
	}
	return nil
}

// restoreShape gives the instance the snapshot's memory size and stack
// pointer (the module's one mutable global).
func restoreShape(mod api.Module, h *snapshotHeader) error {
	m := mod.Memory()
	if cur := m.Size() / wasmPage; h.Pages > cur {
		if _, ok := m.Grow(h.Pages - cur); !ok {
			return fmt.Errorf("%w: cannot grow memory to %d pages", ErrSnapshotRefused, h.Pages)
		}
	}
	if m.Size() != h.Pages*wasmPage {
		return fmt.Errorf("%w: memory has %d bytes, the snapshot %d pages", ErrSnapshotRefused, m.Size(), h.Pages)
	}
	sp, ok := mod.ExportedGlobal("__stack_pointer").(api.MutableGlobal)
	if !ok || uint32(sp.Get()) != h.StackTop {
		return fmt.Errorf("%w: the module's __stack_pointer does not start at %d", ErrSnapshotRefused, h.StackTop)
	}
	sp.Set(uint64(h.StackPointer))
	return nil
}

// resume makes a restored instance usable: the exports, fresh entropy
// and clock where init had its own, and init's one write that depends
// on the memory profile.
func (vm *VM) resume(ctx context.Context, fixups []snapshotFixup, entropy io.Reader) error {
	if err := vm.lookupExports(); err != nil {
		return err
	}
	vm.bindContext(ctx)
	vm.initialising = true
	if err := applyFixups(vm.mod.Memory(), fixups, entropy); err != nil {
		return err
	}
	if _, err := vm.call(vm.fn.setMemoryLimit, uint64(vm.initHeapLimit())); err != nil {
		return fmt.Errorf("engine: set limits: %w", err)
	}
	if err := vm.measureRuntimeHeap(); err != nil {
		return err
	}
	vm.initialising = false
	return nil
}

// applyFixups writes fresh entropy, and the clock, where init had put
// its own.
func applyFixups(m api.Memory, fixups []snapshotFixup, entropy io.Reader) error {
	for _, fx := range fixups {
		b := make([]byte, fx.Size)
		switch fx.Kind {
		case fixMonotonicMS:
			binary.LittleEndian.PutUint64(b, math.Float64bits(monotonicMS()))
		case fixMonotonicMSValue:
			binary.LittleEndian.PutUint64(b, boxFloat64(monotonicMS()))
		case fixRealtimeMSValue:
			binary.LittleEndian.PutUint64(b, boxFloat64(float64(time.Now().UnixMilli())))
		default:
			for {
				if _, err := io.ReadFull(entropy, b); err != nil {
					return fmt.Errorf("engine: reseed: %w", err)
				}
				// xorshift64* never leaves a zero state.
				if fx.Kind != fixRandomState || binary.LittleEndian.Uint64(b) != 0 {
					break
				}
			}
		}
		if !m.Write(fx.Offset, b) {
			return fmt.Errorf("%w: fixup at %d out of range", ErrSnapshotRefused, fx.Offset)
		}
	}
	return nil
}

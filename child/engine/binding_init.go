package engine

import (
	"context"
	"crypto/rand"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

//go:embed prelude.js
var preludeCore string

// web holds the web platform's globals, inlined into the prelude
// (web/README.md).
//
//go:embed web
var web embed.FS

// preludeSource is the prelude the engine evaluates: the core with the
// web globals inlined, composed on first use (not at init: a child that
// restores a heap snapshot only hashes it, and every child pays for a
// package's init).
var preludeSource = sync.OnceValue(func() string { return composePrelude(preludeCore, web) })

// webMarker is the line of the core prelude the web files replace.
const webMarker = "  // web-globals\n"

// composePrelude inlines every web/*.js file, in name order, each in its
// own function, at the core's marker.
func composePrelude(core string, files fs.FS) string {
	var b strings.Builder
	b.Grow(len(core) + 256<<10)
	writePrelude(&b, core, files)
	return b.String()
}

// writePrelude writes the composed prelude to w, part by part: a child
// that restores a heap snapshot only needs its hash (preludeKey), which
// it takes without building the text.
func writePrelude(w io.Writer, core string, files fs.FS) {
	names, err := fs.Glob(files, "web/*.js")
	at := strings.Index(core, webMarker)
	if err != nil || at < 0 || strings.Count(core, webMarker) != 1 {
		panic("engine: the prelude has no single web-globals marker")
	}
	io.WriteString(w, core[:at])
	for _, name := range names {
		src, err := fs.ReadFile(files, name)
		if err != nil {
			panic("engine: read " + name + ": " + err.Error())
		}
		fmt.Fprintf(w, "  // %s\n  (function () {\n", name)
		w.Write(src)
		io.WriteString(w, "\n  })();\n")
	}
	io.WriteString(w, core[at+len(webMarker):])
}

// NewVM instantiates the module for the given memory limit and runs
// everything that does not depend on the request: WASI reactor
// initialisation, QuickJS runtime and context, limits, the prelude and
// its builtins.
//
// An engine configured with a heap snapshot (Config.Snapshot) restores
// the instance from it instead, and fails if the snapshot is refused.
func (e *Engine) NewVM(ctx context.Context, memoryBytes int64) (*VM, error) {
	if e.cfg.Snapshot != "" {
		return e.restoreVM(ctx, memoryBytes, e.cfg.Snapshot, e.cfg.SnapshotSHA256, preludeKey(), rand.Reader)
	}
	return e.newVM(ctx, memoryBytes, preludeSource())
}

// newVM is NewVM with the prelude to evaluate (tests give it variants).
func (e *Engine) newVM(ctx context.Context, memoryBytes int64, prelude string) (*VM, error) {
	mr, err := e.runtimeFor(ctx, memoryBytes)
	if err != nil {
		return nil, err
	}
	mod, err := mr.runtime.InstantiateModule(ctx, mr.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("engine: instantiate: %w", err)
	}
	vm := &VM{mod: mod, memoryBytes: memoryBytes, maxPages: maxPagesFor(memoryBytes)}
	if err := vm.init(ctx, prelude); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return vm, nil
}

// init runs what a heap snapshot records: the reactor's and QuickJS's
// initialisation, the init-time limits, the scratch buffer and the
// prelude.
func (vm *VM) init(ctx context.Context, prelude string) error {
	if err := vm.lookupExports(); err != nil {
		return err
	}
	sp := vm.mod.ExportedGlobal("__stack_pointer")
	if sp == nil {
		return errors.New("engine: QuickJS module does not export __stack_pointer")
	}
	vm.stackTop = uint32(sp.Get())
	vm.bindContext(ctx)
	vm.initialising = true
	if err := vm.initRuntime(); err != nil {
		return err
	}
	scratch, err := vm.call(vm.fn.malloc, 32)
	if err != nil || scratch == 0 {
		return fmt.Errorf("engine: allocate scratch: %v", err)
	}
	vm.scratch = uint32(scratch)
	vm.messageKey = vm.scratch + 16
	vm.mod.Memory().Write(vm.messageKey, []byte("message\x00"))
	if err := vm.loadPrelude(prelude); err != nil {
		return err
	}
	if err := vm.measureRuntimeHeap(); err != nil {
		return err
	}
	vm.initialising = false
	return nil
}

// initMemoryLimit is QuickJS's heap limit while init (or a restore) runs:
// the profile's, or the heap the prelude needs to load if that is more
// (a 1 MiB profile could not load it). The page cap has the room: it is
// 1.25 times the profile plus 4 MiB.
func initMemoryLimit(memoryBytes int64) int64 { return max(memoryBytes, 4<<20) }

// measureRuntimeHeap records what the runtime's own heap takes once init
// (or a restore) is done: memory_bytes is what the request's code may
// allocate beyond it.
func (vm *VM) measureRuntimeHeap() error {
	n, ok := vm.heapBytes()
	if !ok {
		return fmt.Errorf("engine: read the runtime's heap size")
	}
	vm.runtimeHeap = n
	return nil
}

// initRuntime initialises the reactor and QuickJS's runtime and context,
// and sets the init-time limits and hooks.
func (vm *VM) initRuntime() error {
	if _, err := vm.call(vm.fn.initialize); err != nil {
		return fmt.Errorf("engine: _initialize: %w", err)
	}
	if rc, err := vm.call(vm.fn.qjsInit); err != nil || int32(rc) != 0 {
		return fmt.Errorf("engine: qjs_init failed (rc %d): %v", int32(rc), err)
	}
	for _, s := range []struct {
		f   api.Function
		arg uint64
	}{
		// The runtime's own heap (the prelude and the web globals) is
		// built under a limit of its own; Run gives the request's code its
		// limit on top of what init left (runtimeHeap).
		{vm.fn.setMemoryLimit, uint64(initMemoryLimit(vm.memoryBytes))},
		// For the trusted prelude; Run sets the request's own stack
		// limit before it compiles the request's code.
		{vm.fn.setMaxStackSize, uint64(contract.MaxStackBytes)},
		{vm.fn.setModuleLoader, 1},
		{vm.fn.setInterruptHandler, 1},
	} {
		if _, err := vm.call(s.f, s.arg); err != nil {
			return fmt.Errorf("engine: set limits: %w", err)
		}
	}
	return nil
}

// loadPrelude evaluates the prelude, calls the factory it evaluates to
// with the host functions, and keeps the entry points it returns.
func (vm *VM) loadPrelude(prelude string) error {
	hostFns, err := vm.newHostFunctions()
	defer func() {
		for _, h := range hostFns {
			vm.freeValue(h)
		}
	}()
	if err != nil {
		return err
	}
	factory, err := vm.evalScript(prelude, "<warden-prelude>")
	if err != nil {
		return fmt.Errorf("engine: prelude: %w", err)
	}
	defer vm.freeValue(factory)
	apiObj, err := vm.callFunction(factory, hostFns...)
	if err != nil {
		return fmt.Errorf("engine: prelude: %w", err)
	}
	defer vm.freeValue(apiObj)
	for _, p := range []struct {
		name string
		dst  *uint32
	}{{"run", &vm.api.run}, {"timers", &vm.api.timers}, {"finish", &vm.api.finish}, {"describe", &vm.api.describe}} {
		v, err := vm.getProp(apiObj, p.name)
		if err != nil {
			return fmt.Errorf("engine: prelude: %w", err)
		}
		*p.dst = v
	}
	return nil
}

// newHostFunctions makes the JS functions the prelude closes over, one
// per host function name; the caller frees them, those made so far
// included when it fails.
func (vm *VM) newHostFunctions() ([]uint32, error) {
	hostFns := make([]uint32, 0, len(hostFunctions))
	for _, fn := range hostFunctions {
		name := fn.name
		p, n, err := vm.writeBytes([]byte(name))
		if err != nil {
			return hostFns, err
		}
		h, err := vm.call(vm.fn.newHostFunction, uint64(p), uint64(n), 0)
		vm.call(vm.fn.free, uint64(p))
		if err != nil || h == 0 {
			return hostFns, fmt.Errorf("engine: create host function %s: %v", name, err)
		}
		hostFns = append(hostFns, uint32(h))
	}
	return hostFns, nil
}

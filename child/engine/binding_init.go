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
	if e.FromSnapshot() {
		src := snapshotSource{path: e.cfg.Snapshot, digest: e.cfg.SnapshotSHA256, sealed: e.cfg.SealedSnapshot}
		return e.restoreVM(ctx, memoryBytes, src, keyWithRegistry(preludeKey(), e.cfg.Registry.Digest()), rand.Reader)
	}
	return e.newVM(ctx, memoryBytes, preludeSource())
}

// newVM is NewVM with the prelude to evaluate (tests give it variants).
func (e *Engine) newVM(ctx context.Context, memoryBytes int64, prelude string) (*VM, error) {
	return e.newVMThen(ctx, memoryBytes, prelude, nil)
}

// errSkipRegistry, from init's beforeRegistry, leaves the registered
// modules out of the instance.
var errSkipRegistry = errors.New("engine: skip the registered modules")

// newVMThen is newVM with beforeRegistry (when not nil) run on the
// instance between the prelude and the registered modules.
func (e *Engine) newVMThen(ctx context.Context, memoryBytes int64, prelude string, beforeRegistry func(*VM) error) (*VM, error) {
	code, err := e.preludeBytecode(ctx, memoryBytes, prelude)
	if err != nil {
		return nil, err
	}
	vm, err := e.instantiate(ctx, memoryBytes)
	if err != nil {
		return nil, err
	}
	if err := vm.init(code, beforeRegistry); err != nil {
		vm.mod.Close(ctx)
		return nil, err
	}
	return vm, nil
}

// preludeBytecode is the prelude compiled to QuickJS bytecode without
// its functions' source text, once per engine, in an instance of its
// own that is then thrown away; every VM evaluates the bytecode.
// Evaluating the source instead left each function's text in the heap
// (each nested function keeps a copy of its own: 0.58 MB of the 0.74 MB
// the prelude compiles to with source) and the parser's garbage in freed
// memory (RATIONALE.md, "The prelude as bytecode without its source").
func (e *Engine) preludeBytecode(ctx context.Context, memoryBytes int64, prelude string) ([]byte, error) {
	e.mu.Lock()
	code, ok := e.bytecode[prelude]
	e.mu.Unlock()
	if ok {
		return code, nil
	}
	vm, err := e.instantiate(ctx, memoryBytes)
	if err != nil {
		return nil, err
	}
	defer vm.mod.Close(ctx)
	if err := vm.initRuntime(); err != nil {
		return nil, err
	}
	if code, err = vm.compileScript(prelude, preludeFilename, 0, compileStripSource); err != nil {
		return nil, fmt.Errorf("engine: prelude: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.bytecode == nil {
		e.bytecode = map[string][]byte{}
	}
	e.bytecode[prelude] = code
	return code, nil
}

// preludeFilename names the prelude in QuickJS's own stack frames, which
// the prelude's stack rewriting drops.
const preludeFilename = "<warden-prelude>"

// instantiate makes a bare instance of the module for memoryBytes's
// profile, bound to its exports, with nothing of init run.
func (e *Engine) instantiate(ctx context.Context, memoryBytes int64) (*VM, error) {
	mr, err := e.runtimeFor(ctx, memoryBytes)
	if err != nil {
		return nil, err
	}
	mod, err := mr.runtime.InstantiateModule(ctx, mr.compiled,
		wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("engine: instantiate: %w", err)
	}
	vm := &VM{mod: mod, memoryBytes: memoryBytes, maxPages: e.pagesFor(memoryBytes),
		reg: e.cfg.Registry, extraHeap: e.cfg.Registry.HeapBytes()}
	sp := mod.ExportedGlobal("__stack_pointer")
	if err := vm.lookupExports(); err != nil {
		mod.Close(ctx)
		return nil, err
	} else if sp == nil {
		mod.Close(ctx)
		return nil, errors.New("engine: QuickJS module does not export __stack_pointer")
	}
	vm.stackTop = uint32(sp.Get())
	vm.bindContext(ctx)
	return vm, nil
}

// init runs what a heap snapshot records: the reactor's and QuickJS's
// initialisation, the init-time limits, the scratch buffer, the prelude,
// from its bytecode, and the registered modules, with beforeRegistry
// (when not nil) run just before them.
func (vm *VM) init(prelude []byte, beforeRegistry func(*VM) error) error {
	if err := vm.initRuntime(); err != nil {
		return err
	}
	if err := vm.loadPrelude(prelude); err != nil {
		return err
	}
	load := len(vm.reg.Names()) > 0
	if beforeRegistry != nil {
		if err := beforeRegistry(vm); errors.Is(err, errSkipRegistry) {
			load = false
		} else if err != nil {
			return err
		}
	}
	if load {
		if err := vm.loadRegistry(vm.reg); err != nil {
			return err
		}
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

// initHeapLimit is initMemoryLimit for this instance: with the
// registry's heap allowance on top.
func (vm *VM) initHeapLimit() int64 { return initMemoryLimit(vm.memoryBytes) + vm.extraHeap }

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
// sets the init-time limits and hooks, and allocates the scratch buffer.
func (vm *VM) initRuntime() error {
	vm.initialising = true
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
		{vm.fn.setMemoryLimit, uint64(vm.initHeapLimit())},
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
	scratch, err := vm.call(vm.fn.malloc, 32)
	if err != nil || scratch == 0 {
		return fmt.Errorf("engine: allocate scratch: %v", err)
	}
	vm.scratch = uint32(scratch)
	vm.messageKey = vm.scratch + 16
	vm.mod.Memory().Write(vm.messageKey, []byte("message\x00"))
	return nil
}

// loadPrelude evaluates the prelude, calls the factory it evaluates to
// with the host functions, and keeps the entry points it returns.
func (vm *VM) loadPrelude(prelude []byte) error {
	hostFns, err := vm.newHostFunctions()
	defer func() {
		for _, h := range hostFns {
			vm.freeValue(h)
		}
	}()
	if err != nil {
		return err
	}
	factory, err := vm.evalBytecode(prelude)
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
	}{{"run", &vm.api.run}, {"timers", &vm.api.timers}, {"finish", &vm.api.finish}, {"describe", &vm.api.describe},
		{"setTimers", &vm.api.setTimers}, {"runModule", &vm.api.runModule}, {"answer", &vm.api.answer}} {
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

// Package engine runs one Warden execution in a fresh QuickJS WebAssembly
// instance hosted by wazero.
//
// An Engine compiles the pinned QuickJS module once per process (with the
// optimizing compiler and an optional file compilation cache) and hands
// out VMs: one instance each, initialised and ready, used for exactly one
// Run and then closed. The module gets only the imports it needs (six
// WASI functions implemented here without a filesystem, and the host
// callbacks), and its linear memory has a hard maximum derived from the
// memory limit.
//
// A VM is the binding to one instance (binding*.go: the exports, calls
// into the module, guest memory), which is also what a heap snapshot
// restores (snapshot*.go); a Run is one execution on it (execution*.go:
// phase, deadline, limits, logs, data counters). The host imports
// (host.go) find either in the context of the call that reached them.
//
// Inside a supervised child the engine runs with CloseOnContextDone off:
// the interrupt handler stops JS at the deadline and the supervisor's
// SIGKILL bounds slow C builtins. Whenever the engine runs in-process with
// nothing above it, turn CloseOnContextDone on, so that nothing can run
// unbounded (it slows every loop several times over; BENCHMARKS.md).
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"

	"github.com/wardenhq/warden/child/engine/intl"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/pagemap"
)

// Config configures an Engine. The zero value is usable: embedded module,
// no file cache, CloseOnContextDone off, contract default limits and caps.
type Config struct {
	// CacheDir is the wazero file compilation cache directory; the
	// entries go in its subdirectory CacheFlavour(). Empty means compile
	// in memory every time the process starts.
	CacheDir string
	// CloseOnContextDone makes wazero abort guest code when the
	// execution's context ends, even inside a slow C builtin. Turn it on
	// when nothing above the engine can kill it.
	CloseOnContextDone bool
	// ReserveLinearMemory allocates each instance's capped linear memory
	// up front, so that growing it never copies (docs/quickjs-wasm.md
	// fact 8), which keeps a child's peak memory down. Right for a process
	// that runs one instance (a child); in a process that creates many,
	// the up-front allocation slows instantiation several times over
	// (BENCHMARKS.md, "Memory overhead default"), so it is off by default.
	ReserveLinearMemory bool
	// Interpreter selects wazero's interpreter instead of the optimizing
	// compiler. Only for tests and platforms without the compiler.
	Interpreter bool
	// Defaults and Caps bound the requests of Execute, the in-process
	// path, which resolves them (contract.Resolve) because nothing above
	// it does; they are merged field by field with
	// contract.DefaultLimits and DefaultCaps (contract.ConfigLimits). VM.Run resolves nothing: it runs the resolved
	// limits it is given (in a child, the supervisor's).
	Defaults contract.Limits
	Caps     contract.Limits
	// MemoryBytes is the memory profile New compiles the module for (one
	// wazero runtime per linear-memory cap). Default: Defaults.MemoryBytes.
	// A child prepared for another profile sets it, so that it does not
	// compile the module a second time for a runtime it never uses.
	MemoryBytes int64
	// Snapshot, when set, is the path of a heap snapshot (WriteSnapshot)
	// that NewVM maps as each instance's memory instead of running init;
	// SnapshotSHA256 is the digest the file must have. NewVM fails when
	// the snapshot is refused (digest, size, key, shape).
	Snapshot       string
	SnapshotSHA256 string
	// SealedSnapshot, when set instead of Snapshot, is the heap snapshot
	// as a sealed memory file the caller has checked (memfd.Check): its
	// bytes cannot change, so NewVM does not hash them, only makes
	// every page present (a byte read per page, which the kernel's
	// fault-around answers 16 pages at a time). The engine neither
	// closes nor keeps it beyond NewVM.
	SealedSnapshot *os.File
	// SealedCompiled, when set, is a directory laid out as
	// CacheDir/CacheFlavour() whose entries are links to sealed memory
	// files holding the compiled module (a child's SealedView): wazero's
	// file cache, which opens entries by path, reads it instead.
	SealedCompiled string
	// Registry holds the host-approved modules every instance evaluates
	// during init (into the heap snapshot with the prelude), which code
	// imports by name. Trusted code only: it runs with the prelude's
	// rights. Nil: none.
	Registry *Registry
	// Wasm is the QuickJS module, for a binary that does not embed it
	// (EmbeddedWasm); WasmFile names a file holding it. With neither,
	// the engine takes the embedded module, else the one `warden setup`
	// put in CacheDir (runtimefiles.WasmFile). Whichever it is must be
	// the pinned module (runtimefiles.WasmSHA256).
	Wasm     []byte
	WasmFile string
	// IntlPack is the Intl data pack (runtimefiles.IntlFile) for a binary
	// that does not embed the data (intl.Embedded); IntlPackSHA256, when
	// set, the digest it must have. Without either the binary's own
	// data, or none (Intl then throws, saying what to run).
	IntlPack       string
	IntlPackSHA256 string
	// SealedIntlPack, when set instead of IntlPack, is the pack as a
	// sealed memory file the caller has checked: it is mapped, not
	// hashed.
	SealedIntlPack *os.File
}

// Engine holds the compiled QuickJS module. It is safe for concurrent use;
// each VM it returns is not.
type Engine struct {
	cfg   Config
	cache wazero.CompilationCache

	wasm []byte // the QuickJS module (wasmFor)

	mu       sync.Mutex
	runtimes map[runtimeKey]*moduleRuntime
	bytecode map[string][]byte // prelude text -> preludeBytecode
	closed   bool
}

// runtimeKey picks a wazero runtime: the linear-memory page cap is a
// runtime setting, so there is one runtime per memory profile.
type runtimeKey struct {
	maxPages uint32
}

type moduleRuntime struct {
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
}

// New validates cfg and compiles the module for cfg.MemoryBytes.
func New(ctx context.Context, cfg Config) (*Engine, error) {
	wasm, err := wasmFor(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.SealedIntlPack != nil {
		if err := intl.UsePack(cfg.SealedIntlPack, ""); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
	} else if cfg.IntlPack != "" {
		if err := intl.UsePackFile(cfg.IntlPack, cfg.IntlPackSHA256); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
	}
	defaults, caps, err := contract.ConfigLimits(cfg.Defaults, cfg.Caps)
	if err != nil {
		return nil, fmt.Errorf("engine: Config.Defaults and Config.Caps: %w", err)
	}
	cfg.Defaults, cfg.Caps = defaults, caps
	if cfg.MemoryBytes == 0 {
		cfg.MemoryBytes = cfg.Defaults.MemoryBytes
	}
	// Opened now, while opening files is still allowed (a child's
	// seccomp filter forbids it later); peakStack reads it.
	pagemap.Open()
	e := &Engine{cfg: cfg, wasm: wasm, runtimes: map[runtimeKey]*moduleRuntime{}}
	if cfg.CacheDir != "" || cfg.SealedCompiled != "" {
		dir := cfg.SealedCompiled
		if dir == "" {
			dir = filepath.Join(cfg.CacheDir, CacheFlavour())
		}
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("engine: open compilation cache %s: %w", dir, err)
		}
		e.cache = cache
	} else {
		e.cache = wazero.NewCompilationCache()
	}
	if _, err := e.runtimeFor(ctx, cfg.MemoryBytes); err != nil {
		e.Close(ctx)
		return nil, err
	}
	return e, nil
}

// FromSnapshot reports whether NewVM restores instances from a heap
// snapshot (Config.Snapshot) rather than running init.
func (e *Engine) FromSnapshot() bool { return e.cfg.Snapshot != "" || e.cfg.SealedSnapshot != nil }

// maxPagesFor is the linear-memory cap, in wasm pages, of an instance
// whose QuickJS heap is capped at memoryBytes (contract.LinearMemoryCap).
func maxPagesFor(memoryBytes int64) uint32 {
	return uint32((contract.LinearMemoryCap(memoryBytes) + wasmPage - 1) / wasmPage)
}

// pagesFor is this engine's page cap for memoryBytes's profile: the
// registry's heap allowance comes on top of the profile's cap.
func (e *Engine) pagesFor(memoryBytes int64) uint32 {
	extra := e.cfg.Registry.HeapBytes()
	return maxPagesFor(memoryBytes) + uint32((extra+wasmPage-1)/wasmPage)
}

func (e *Engine) runtimeFor(ctx context.Context, memoryBytes int64) (*moduleRuntime, error) {
	key := runtimeKey{maxPages: e.pagesFor(memoryBytes)}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, errors.New("engine: closed")
	}
	if mr, ok := e.runtimes[key]; ok {
		return mr, nil
	}
	var rc wazero.RuntimeConfig
	if e.cfg.Interpreter {
		rc = wazero.NewRuntimeConfigInterpreter()
	} else {
		rc = wazero.NewRuntimeConfigCompiler()
	}
	rc = rc.WithCompilationCache(e.cache).
		WithMemoryLimitPages(key.maxPages).
		WithMemoryCapacityFromMax(e.cfg.ReserveLinearMemory).
		WithCloseOnContextDone(e.cfg.CloseOnContextDone)
	r := wazero.NewRuntimeWithConfig(ctx, rc)
	if err := instantiateHostModules(ctx, r); err != nil {
		r.Close(ctx)
		return nil, err
	}
	compiled, err := compileModule(withThrowListeners(ctx), r, e.wasm)
	if err != nil {
		r.Close(ctx)
		return nil, fmt.Errorf("engine: compile QuickJS module: %w", err)
	}
	mr := &moduleRuntime{runtime: r, compiled: compiled}
	e.runtimes[key] = mr
	return mr, nil
}

// Close releases every runtime. VMs still open become unusable.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var errs []error
	for _, mr := range e.runtimes {
		errs = append(errs, mr.runtime.Close(ctx))
	}
	if e.cache != nil {
		errs = append(errs, e.cache.Close(ctx))
	}
	return errors.Join(errs...)
}

// Execute runs one request on a fresh VM: the in-process path. With no
// supervisor above it, it resolves the request's limits against the
// engine's Defaults and Caps itself, here and nowhere else.
func (e *Engine) Execute(ctx context.Context, req contract.Request, opts RunOptions) contract.Result {
	limits, clamped, err := contract.Resolve(req.Limits, e.cfg.Defaults, e.cfg.Caps)
	if err != nil {
		return contract.Fail(err, limits)
	}
	req.Limits = limits
	vm, err := e.NewVM(ctx, limits.MemoryBytes)
	if err != nil {
		switch {
		case errors.Is(ctx.Err(), context.Canceled):
			err = contract.Errorf(contract.AbortError, "execution cancelled by the caller while the engine started")
		case ctx.Err() != nil:
			err = contract.Errorf(contract.TimeoutError, "deadline passed while the engine started")
		default:
			err = contract.Errorf(contract.SandboxError, "start engine: %v", err)
		}
		res := contract.Fail(err, limits)
		res.Clamped = clamped
		return res
	}
	defer vm.Close(context.WithoutCancel(ctx))
	res := vm.Run(ctx, req, opts)
	res.Clamped = clamped
	return res
}

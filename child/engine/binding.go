package engine

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

//go:embed prelude.js
var preludeSource string

// The wrapper around user code. The code sits on the first line so that
// line numbers in stack traces are the user's own.
const (
	wrapperHead = "(async function (input) {"
	wrapperTail = "\n})"
)

type phase int

const (
	phaseInit    phase = iota // prelude set-up: host functions allowed
	phaseCompile              // evaluating the wrapper: no host access
	phaseRun                  // user code running
	phaseDone
)

// RunOptions are the per-execution hooks.
type RunOptions struct {
	// Handler answers host.request; nil rejects every request.
	Handler contract.DataHandler
	// OnLog, when set, sees every captured log entry as it happens (the
	// streaming API). Entries past the output limit are not passed.
	OnLog func(contract.LogEntry)
}

// VM is one QuickJS instance, initialised and ready for exactly one Run.
// It is not safe for concurrent use.
type VM struct {
	engine      *Engine
	mod         api.Module
	memoryBytes int64
	maxPages    uint32
	stackTop    uint32 // initial __stack_pointer: the shadow stack grows down from here

	fn exports

	scratch     uint32 // 16 bytes of guest memory for out-parameters
	messageKey  uint32 // "message\0" in guest memory
	apiRun      uint32 // JSValue* of the prelude's run, finish, describe
	apiFinish   uint32
	apiDescribe uint32

	// Per-run state.
	ph          phase
	used        bool
	broken      error
	callCtx     context.Context
	parentCtx   context.Context
	deadlineCtx context.Context // parentCtx bounded by the deadline
	deadline    time.Time
	interrupted bool
	limits      contract.Limits
	opts        RunOptions
	modules     map[string]string
	logs        []contract.LogEntry
	logBytes    int64 // what the logs take as JSON (contract.LogEntryCost of each)
	logsCut     bool
	requests    int   // host.request calls made
	dataBytes   int64 // host.request traffic: names and arguments sent, answers received
	// inHost is set while a host function that calls back into the
	// module runs: a host function entered while it is set is refused,
	// and a failed call into the module unwinds the whole execution.
	inHost bool
	// fatal is the error that ended the execution from inside a host
	// function (a data limit, a refused nested call); classify reports it.
	fatal *contract.Error
	// initEntropy is what random_get handed out during init, call by
	// call (WriteSnapshot looks for where init kept it).
	initEntropy [][]byte
}

type exports struct {
	initialize, qjsInit, setMemoryLimit, setMaxStackSize, setInterruptHandler, setModuleLoader api.Function
	malloc, free, eval, call, freeValue, isException, getException, isString, getStringLen     api.Function
	freeCString, newString, newError, definePropString, throw, newHostFunction, getPropString  api.Function
	promiseState, promiseResult, isPromise, isJobPending, executePendingJob, jsIsUncatchable   api.Function
	getAllocatedSize, isNull, isError                                                          api.Function
}

func (vm *VM) lookupExports() error {
	var missing []string
	get := func(name string) api.Function {
		f := vm.mod.ExportedFunction(name)
		if f == nil {
			missing = append(missing, name)
		}
		return f
	}
	x := &vm.fn
	x.initialize = get("_initialize")
	x.qjsInit = get("qjs_init")
	x.setMemoryLimit = get("qjs_set_memory_limit")
	x.setMaxStackSize = get("qjs_set_max_stack_size")
	x.setInterruptHandler = get("qjs_set_interrupt_handler")
	x.setModuleLoader = get("qjs_set_module_loader")
	x.malloc = get("wasm_malloc")
	x.free = get("wasm_free")
	x.eval = get("qjs_eval")
	x.call = get("qjs_call")
	x.freeValue = get("qjs_free_value")
	x.isException = get("qjs_is_exception")
	x.getException = get("qjs_get_exception")
	x.isString = get("qjs_is_string")
	x.getStringLen = get("qjs_get_string_len")
	x.freeCString = get("qjs_free_cstring")
	x.newString = get("qjs_new_string")
	x.newError = get("qjs_new_error")
	x.definePropString = get("qjs_define_prop_string")
	x.throw = get("qjs_throw")
	x.newHostFunction = get("qjs_new_host_function")
	x.getPropString = get("qjs_get_prop_string")
	x.promiseState = get("qjs_promise_state")
	x.promiseResult = get("qjs_promise_result")
	x.isPromise = get("qjs_is_promise")
	x.isJobPending = get("qjs_is_job_pending")
	x.executePendingJob = get("qjs_execute_pending_job")
	x.jsIsUncatchable = get("JS_IsUncatchableError")
	x.getAllocatedSize = get("qjs_get_allocated_size")
	x.isNull = get("qjs_is_null")
	x.isError = get("qjs_is_error")
	if len(missing) > 0 {
		return fmt.Errorf("engine: QuickJS module lacks exports %s", strings.Join(missing, ", "))
	}
	return nil
}

// errTrap marks a failed call into the module: the instance is corrupt
// and must be discarded.
type errTrap struct{ err error }

func (e *errTrap) Error() string { return "wasm trap: " + e.err.Error() }
func (e *errTrap) Unwrap() error { return e.err }

// call invokes an export. After a trap every later call fails with the
// same error, so a corrupted instance is never used again. Inside a host
// function a failure does not return: it unwinds to the export call that
// entered the guest (see unwind), so no guest code runs after it.
func (vm *VM) call(f api.Function, params ...uint64) (uint64, error) {
	if vm.broken != nil {
		vm.unwindIfInHost()
		return 0, vm.broken
	}
	res, err := f.Call(vm.callCtx, params...)
	if err != nil {
		vm.broken = &errTrap{err}
		vm.unwindIfInHost()
		return 0, vm.broken
	}
	if len(res) == 0 {
		return 0, nil
	}
	// Every export Warden calls returns an i32 (a pointer, a size or a
	// bool); wazero leaves the upper half of the slot undefined.
	return uint64(uint32(res[0])), nil
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
		return e.restoreVM(ctx, memoryBytes, e.cfg.Snapshot, e.cfg.SnapshotSHA256, preludeSource, rand.Reader)
	}
	return e.newVM(ctx, memoryBytes, preludeSource)
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
	vm := &VM{engine: e, mod: mod, memoryBytes: memoryBytes, maxPages: maxPagesFor(memoryBytes)}
	if err := vm.init(ctx, prelude); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return vm, nil
}

func (vm *VM) init(ctx context.Context, prelude string) error {
	if err := vm.lookupExports(); err != nil {
		return err
	}
	sp := vm.mod.ExportedGlobal("__stack_pointer")
	if sp == nil {
		return errors.New("engine: QuickJS module does not export __stack_pointer")
	}
	vm.stackTop = uint32(sp.Get())
	vm.callCtx = context.WithValue(ctx, vmKey{}, vm)
	vm.ph = phaseInit
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
		{vm.fn.setMemoryLimit, uint64(vm.memoryBytes)},
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

	hostFns := make([]uint32, 0, 3)
	defer func() {
		for _, h := range hostFns {
			vm.freeValue(h)
		}
	}()
	for _, name := range []string{hostFnLog, hostFnSHA256, hostFnRequest} {
		p, n, err := vm.writeBytes([]byte(name))
		if err != nil {
			return err
		}
		h, err := vm.call(vm.fn.newHostFunction, uint64(p), uint64(n), 0)
		vm.call(vm.fn.free, uint64(p))
		if err != nil || h == 0 {
			return fmt.Errorf("engine: create host function %s: %v", name, err)
		}
		hostFns = append(hostFns, uint32(h))
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
	}{{"run", &vm.apiRun}, {"finish", &vm.apiFinish}, {"describe", &vm.apiDescribe}} {
		v, err := vm.getProp(apiObj, p.name)
		if err != nil {
			return fmt.Errorf("engine: prelude: %w", err)
		}
		*p.dst = v
	}
	vm.ph = phaseDone
	return nil
}

// Close discards the instance.
func (vm *VM) Close(ctx context.Context) error {
	return vm.mod.Close(ctx)
}

// jsException is a pending QuickJS exception fetched into a value.
type jsException struct{ value uint32 }

func (e *jsException) Error() string { return "javascript exception" }

// checkException turns an exception box into a *jsException holding the
// exception value (the caller frees it).
func (vm *VM) checkException(box uint32) (uint32, error) {
	isExc, err := vm.call(vm.fn.isException, uint64(box))
	if err != nil {
		return 0, err
	}
	if isExc == 0 {
		return box, nil
	}
	vm.freeValue(box)
	exc, err := vm.call(vm.fn.getException)
	if err != nil {
		return 0, err
	}
	return 0, &jsException{value: uint32(exc)}
}

func (vm *VM) evalScript(src, filename string) (uint32, error) {
	cp, cn, err := vm.writeBytes([]byte(src))
	if err != nil {
		return 0, err
	}
	defer vm.call(vm.fn.free, uint64(cp))
	fp, _, err := vm.writeBytes([]byte(filename))
	if err != nil {
		return 0, err
	}
	defer vm.call(vm.fn.free, uint64(fp))
	box, err := vm.call(vm.fn.eval, uint64(cp), uint64(cn), uint64(fp), 0)
	if err != nil {
		return 0, err
	}
	return vm.checkException(uint32(box))
}

func (vm *VM) callFunction(fn uint32, args ...uint32) (uint32, error) {
	var argv uint64
	if len(args) > 0 {
		buf := make([]byte, 4*len(args))
		for i, a := range args {
			binary.LittleEndian.PutUint32(buf[4*i:], a)
		}
		p, _, err := vm.writeBytes(buf)
		if err != nil {
			return 0, err
		}
		argv = uint64(p)
		defer vm.call(vm.fn.free, argv)
	}
	undef := uint64(0) // qjs_call treats a NULL this as undefined
	box, err := vm.call(vm.fn.call, uint64(fn), undef, uint64(len(args)), argv)
	if err != nil {
		return 0, err
	}
	return vm.checkException(uint32(box))
}

func (vm *VM) getProp(obj uint32, name string) (uint32, error) {
	p, _, err := vm.writeBytes([]byte(name))
	if err != nil {
		return 0, err
	}
	defer vm.call(vm.fn.free, uint64(p))
	box, err := vm.call(vm.fn.getPropString, uint64(obj), uint64(p))
	if err != nil {
		return 0, err
	}
	return vm.checkException(uint32(box))
}

func (vm *VM) shouldInterrupt(ctx context.Context) bool {
	if vm.ph == phaseInit {
		return false
	}
	if vm.interrupted || vm.fatal != nil {
		return true
	}
	if !vm.deadline.IsZero() && !time.Now().Before(vm.deadline) || vm.parentCtx != nil && vm.parentCtx.Err() != nil {
		vm.interrupted = true
		return true
	}
	return false
}

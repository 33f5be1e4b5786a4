package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

// VM is one QuickJS instance, initialised and ready for exactly one Run.
// It is not safe for concurrent use.
//
// VM itself is the binding to the module: its exports, calls into it, its
// guest memory, and the guest addresses init leaves behind. That is all a
// heap snapshot holds and all a restored instance needs (snapshot*.go).
// What one Run adds (phase, deadline, limits, logs, data counters, the
// error that ended it) is an execution (execution.go), which exists only
// while Run does and reaches the module through its VM.
type VM struct {
	mod         api.Module
	fn          exports
	memoryBytes int64  // the memory profile the instance was made for
	maxPages    uint32 // the linear memory's page cap (maxPagesFor)
	stackTop    uint32 // initial __stack_pointer: the shadow stack grows down from here

	// runtimeHeap is the QuickJS heap the runtime itself holds once init
	// (or a restore) is done: the prelude, the web globals. The request's
	// memory_bytes comes on top of it.
	runtimeHeap int64

	scratch    uint32 // 16 bytes of guest memory for out-parameters
	messageKey uint32 // "message\0" in guest memory
	api        preludeAPI

	// callCtx is the context of every call into the module: it carries
	// the VM (and, during Run, the execution) to the host imports.
	callCtx context.Context
	// broken is the trap that made the instance unusable; every later
	// call fails with it.
	broken error
	// inHost is set while a host import that calls back into the module
	// runs: a failed call into the module then unwinds (unwindIfInHost),
	// and another host import entered meanwhile is refused (enterHost).
	inHost bool
	// initialising is set while init (or a restore) runs: the interrupt
	// handler is off, and what random_get hands out is kept in
	// initEntropy, call by call (WriteSnapshot looks for where init kept
	// it).
	initialising bool
	initEntropy  [][]byte
	// used is set by the one Run a VM serves.
	used bool
	// reg is the engine's registry (registered names resolve to modules
	// init evaluated); extraHeap its heap allowance, on top of the
	// profile's. registry serves its sources to the loader while init
	// evaluates them (loadRegistry), and is nil at any other time.
	reg       *Registry
	extraHeap int64
	registry  moduleSourcer
	// fixups are the words of a restored VM's snapshot that init drew
	// from entropy or the clock (nil for a VM that ran init itself): a
	// deterministic execution pins them again (deterministic.go).
	fixups []snapshotFixup
	// snapshotKey is the key of the snapshot a restored VM came from
	// (empty for one that ran init): what a parked state is bound to.
	snapshotKey string
}

// preludeAPI holds the JSValue* of the functions the prelude returns.
type preludeAPI struct {
	run, timers, finish, describe, setTimers, runModule, answer uint32
}

type exports struct {
	initialize, qjsInit, setMemoryLimit, setMaxStackSize, setInterruptHandler, setModuleLoader api.Function
	malloc, free, eval, call, freeValue, isException, getException, isString, getStringLen     api.Function
	freeCString, newString, newError, definePropString, throw, newHostFunction, getPropString  api.Function
	promiseState, promiseResult, isPromise, isJobPending, executePendingJob, jsIsUncatchable   api.Function
	getAllocatedSize, isError, getFloat64, compile, evalBytecode                               api.Function
	jsGetException, jsSetUncatchable, jsThrow                                                  api.Function // binding_throws.go
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
	x.compile = get("qjs_compile")
	x.evalBytecode = get("qjs_eval_bytecode")
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
	x.isError = get("qjs_is_error")
	x.getFloat64 = get("qjs_get_float64")
	x.jsGetException = get("JS_GetException")
	x.jsSetUncatchable = get("JS_SetUncatchableError")
	x.jsThrow = get("JS_Throw")
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
// entered the guest (see unwindIfInHost), so no guest code runs after it.
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

// bindContext makes ctx the context of every later call into the module,
// with the VM in it for the host imports (vmFrom).
func (vm *VM) bindContext(ctx context.Context) {
	vm.callCtx = context.WithValue(ctx, vmKey{}, vm)
}

// Close discards the instance.
func (vm *VM) Close(ctx context.Context) error {
	return vm.mod.Close(ctx)
}

// enterHost marks the start of a host import that calls back into the
// module. Those calls can run guest code only through engine hooks the
// prelude removes (Error.prepareStackTrace while an error is built), so
// a host import entered while another runs means that defence failed:
// enterHost then reports false and marks nothing, and the caller ends
// the execution (enterHostImport) before the nested call does anything.
// Call leaveHost when it reports true.
func (vm *VM) enterHost() bool {
	if vm.inHost {
		return false
	}
	vm.inHost = true
	return true
}

func (vm *VM) leaveHost() { vm.inHost = false }

// nestedHostCallError is why an execution ends when host calls nest.
func nestedHostCallError() *contract.Error {
	return contract.Errorf(contract.SandboxError,
		"engine: a host function called while another one was running (refused: host calls never nest)")
}

// trap ends the guest from inside a host import with err: it marks the
// instance broken and panics, and wazero returns the panic as the error
// of the export call that entered the guest. No guest code runs after it.
func (vm *VM) trap(err error) {
	if vm.broken == nil {
		vm.broken = &errTrap{err}
	}
	panic(vm.broken)
}

// unwindIfInHost is called after a call into the module failed: inside a
// host function the failure must not be returned to the guest (which
// would go on running on a broken instance), so it unwinds, as trap does.
func (vm *VM) unwindIfInHost() {
	if vm.inHost {
		panic(vm.broken)
	}
}

// memorySize is the linear memory's size in bytes: its peak, as linear
// memory never shrinks.
func (vm *VM) memorySize() uint32 { return vm.mod.Memory().Size() }

// heapBytes is what QuickJS has allocated; ok is false once the instance
// is broken (no call may run after a trap).
func (vm *VM) heapBytes() (n int64, ok bool) {
	if vm.broken != nil {
		return 0, false
	}
	r, err := vm.call(vm.fn.getAllocatedSize)
	if err != nil {
		return 0, false
	}
	return int64(uint32(r)), true
}

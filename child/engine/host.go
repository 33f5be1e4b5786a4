package engine

import (
	"bytes"
	"context"
	"crypto/rand"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// WASI errno values the shim returns.
const (
	errnoSuccess = 0
	errnoBadf    = 8
	errnoInval   = 28
	errnoNosys   = 52
)

// The host imports find what they act on in the context of the call
// into the module that reached them: the VM (vmKey, VM.bindContext) and,
// while Run runs, the execution (executionKey, execution.start). Imports
// that only touch guest memory use the VM; imports that need the
// request's state use the execution, and reach the VM through it.
type (
	vmKey        struct{}
	executionKey struct{}
)

func vmFrom(ctx context.Context) *VM {
	vm, _ := ctx.Value(vmKey{}).(*VM)
	return vm
}

// executionFrom is the execution running, nil outside Run (during init,
// a restore, a snapshot's probes).
func executionFrom(ctx context.Context) *execution {
	x, _ := ctx.Value(executionKey{}).(*execution)
	return x
}

// enterHostImport brackets a host import that calls back into the module
// (VM.enterHost): a nested one ends the execution x, or, outside one
// (x nil), traps the instance; it does not return then. The caller
// defers vm.leaveHost.
func enterHostImport(vm *VM, x *execution) {
	if vm.enterHost() {
		return
	}
	err := nestedHostCallError()
	if x != nil {
		x.abort(err)
	}
	vm.trap(err)
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// instantiateHostModules gives the runtime exactly the imports the
// QuickJS module declares and nothing more: no filesystem, sockets,
// environment, arguments or real stdio.
func instantiateHostModules(ctx context.Context, r wazero.Runtime) error {
	env := r.NewHostModuleBuilder("env")
	fn := func(b wazero.HostModuleBuilder, name string, f api.GoModuleFunc, params, results []api.ValueType) {
		b.NewFunctionBuilder().WithGoModuleFunction(f, params, results).Export(name)
	}
	fn(env, "host_call", hostCall, []api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32})
	fn(env, "host_interrupt", hostInterrupt, nil, []api.ValueType{i32})
	fn(env, "host_promise_rejection", hostPromiseRejection, []api.ValueType{i32, i32, i32}, nil)
	fn(env, "host_module_normalize", hostModuleNormalize, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn(env, "host_module_load", hostModuleLoad, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn(env, "host_get_timezone_offset", hostTimezoneOffset, []api.ValueType{i32, i32}, []api.ValueType{i32})
	if _, err := env.Instantiate(ctx); err != nil {
		return err
	}
	wasi := r.NewHostModuleBuilder("wasi_snapshot_preview1")
	fn(wasi, "clock_time_get", wasiClockTimeGet, []api.ValueType{i32, i64, i32}, []api.ValueType{i32})
	fn(wasi, "fd_write", wasiFdWrite, []api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32})
	fn(wasi, "fd_fdstat_get", wasiFdFdstatGet, []api.ValueType{i32, i32}, []api.ValueType{i32})
	fn(wasi, "fd_close", wasiFdClose, []api.ValueType{i32}, []api.ValueType{i32})
	fn(wasi, "fd_seek", wasiFdSeek, []api.ValueType{i32, i64, i32, i32}, []api.ValueType{i32})
	fn(wasi, "random_get", wasiRandomGet, []api.ValueType{i32, i32}, []api.ValueType{i32})
	_, err := wasi.Instantiate(ctx)
	return err
}

// hostCall is the trampoline target for every host function the prelude
// was given. It never runs guest code: arguments must already be strings,
// and it answers with a new string or a thrown error.
func hostCall(ctx context.Context, mod api.Module, stack []uint64) {
	vm := vmFrom(ctx)
	namePtr, nameLen := uint32(stack[0]), uint32(stack[1])
	argc, argv := uint32(stack[3]), uint32(stack[4])
	if vm == nil {
		stack[0] = 0
		return
	}
	x := executionFrom(ctx)
	enterHostImport(vm, x)
	defer vm.leaveHost()
	if x != nil && isSourceCall(vm, namePtr, nameLen) {
		// The source of the request's own code, for its error stacks:
		// in every phase (describe runs when the execution is done), and
		// after a limit too (describe reports it).
		stack[0] = uint64(x.dispatch(namePtr, nameLen, argc, argv))
		return
	}
	if x == nil || x.ph != phaseRun {
		stack[0] = uint64(vm.throwError("host functions are not available outside the execution"))
		return
	}
	if x.limitHit != nil {
		// The engine raised a limit and the guest is still running (see
		// binding_throws.go): nothing more reaches the host.
		x.abort(x.limitHit)
	}
	stack[0] = uint64(x.dispatch(namePtr, nameLen, argc, argv))
}

// isSourceCall reports whether the host call is the source function's.
func isSourceCall(vm *VM, namePtr, nameLen uint32) bool {
	name, ok := vm.mod.Memory().Read(namePtr, min(nameLen, 64))
	return ok && string(name) == hostFnSource
}

func hostInterrupt(ctx context.Context, mod api.Module, stack []uint64) {
	if x := executionFrom(ctx); x != nil && x.shouldInterrupt() {
		stack[0] = 1
		return
	}
	stack[0] = 0
}

// hostPromiseRejection is only called when a rejection handler is
// registered; Warden registers none, but free the values if it ever is.
func hostPromiseRejection(ctx context.Context, mod api.Module, stack []uint64) {
	if vm := vmFrom(ctx); vm != nil {
		vm.freeValue(uint32(stack[0]))
		vm.freeValue(uint32(stack[1]))
	}
}

func hostModuleNormalize(ctx context.Context, mod api.Module, stack []uint64) {
	vm := vmFrom(ctx)
	if vm == nil {
		stack[0] = 0
		return
	}
	x := executionFrom(ctx)
	enterHostImport(vm, x)
	defer vm.leaveHost()
	stack[0] = uint64(vm.normalizeModule(uint32(stack[0]), uint32(stack[1]), x))
}

func hostModuleLoad(ctx context.Context, mod api.Module, stack []uint64) {
	vm := vmFrom(ctx)
	if vm == nil {
		stack[0] = 0
		return
	}
	x := executionFrom(ctx)
	enterHostImport(vm, x)
	defer vm.leaveHost()
	source := vm.registry
	if x != nil {
		source = x.moduleSource
	}
	stack[0] = uint64(vm.loadModule(uint32(stack[0]), uint32(stack[1]), source))
}

// hostTimezoneOffset pins the sandbox to UTC: the host's zone is not the
// guest's business, and it keeps results reproducible.
func hostTimezoneOffset(ctx context.Context, mod api.Module, stack []uint64) {
	stack[0] = 0
}

func wasiClockTimeGet(ctx context.Context, mod api.Module, stack []uint64) {
	clockID, resultPtr := uint32(stack[0]), uint32(stack[2])
	ns, ok := clockNS(executionFrom(ctx), clockID)
	if !ok {
		stack[0] = errnoInval
		return
	}
	if !mod.Memory().WriteUint64Le(resultPtr, uint64(ns)) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

var processStart = time.Now()

// monotonicNS is the module's monotonic clock: nanoseconds since this
// process started, never 0. The heap snapshot's clock fixup reads it too
// (monotonicMS), and must see the same clock.
func monotonicNS() int64 { return int64(time.Since(processStart)) + 1 }

func wasiFdWrite(ctx context.Context, mod api.Module, stack []uint64) {
	fd, iovs, iovsLen, nwrittenPtr := uint32(stack[0]), uint32(stack[1]), uint32(stack[2]), uint32(stack[3])
	if fd != 1 && fd != 2 {
		stack[0] = errnoBadf
		return
	}
	// What the module writes to its stdout/stderr (QuickJS only does on
	// internal errors) is counted as written and dropped: it never
	// reaches the host's own descriptors.
	mem := mod.Memory()
	var total uint32
	for i := uint32(0); i < iovsLen; i++ {
		p, ok1 := mem.ReadUint32Le(iovs + i*8)
		n, ok2 := mem.ReadUint32Le(iovs + i*8 + 4)
		if !ok1 || !ok2 {
			stack[0] = errnoInval
			return
		}
		if _, ok := mem.Read(p, n); !ok {
			stack[0] = errnoInval
			return
		}
		total += n
	}
	if !mem.WriteUint32Le(nwrittenPtr, total) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func wasiFdFdstatGet(ctx context.Context, mod api.Module, stack []uint64) {
	fd, statPtr := uint32(stack[0]), uint32(stack[1])
	if fd != 1 && fd != 2 {
		stack[0] = errnoBadf
		return
	}
	var stat [24]byte
	stat[0] = 2 // character device; no rights at all
	if !mod.Memory().Write(statPtr, stat[:]) {
		stack[0] = errnoInval
		return
	}
	stack[0] = errnoSuccess
}

func wasiFdClose(ctx context.Context, mod api.Module, stack []uint64) { stack[0] = errnoNosys }

func wasiFdSeek(ctx context.Context, mod api.Module, stack []uint64) { stack[0] = errnoNosys }

func wasiRandomGet(ctx context.Context, mod api.Module, stack []uint64) {
	buf, n := uint32(stack[0]), uint32(stack[1])
	b, ok := mod.Memory().Read(buf, n)
	if !ok {
		stack[0] = errnoInval
		return
	}
	if d := executionFrom(ctx).entropy(); d != nil {
		d.Read(b)
	} else {
		rand.Read(b)
	}
	if vm := vmFrom(ctx); vm != nil && vm.initialising {
		// What init draws from entropy, for WriteSnapshot to find.
		vm.initEntropy = append(vm.initEntropy, bytes.Clone(b))
	}
	stack[0] = errnoSuccess
}

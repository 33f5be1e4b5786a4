package engine

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/wardenhq/warden/contract"
)

// The engine's own throws of a limit, seen where QuickJS raises them.
//
// A thrown value cannot say whether the engine made it: a guest can
// construct `new RangeError("Maximum call stack size exceeded")`, or catch
// the engine's own and throw something else. So the host watches the
// three exported throw functions every such error passes through (they
// are variadic, which clang never inlines, so every internal call site
// calls the export) with a wazero function listener, compiled into those
// three functions only: no other function pays for it. When one of them
// raises a limit during the user's code, the execution records the limit
// (execution.limitHit), and that record, never the thrown value, decides
// the outcome:
//
//   - the stack overflow (JS_ThrowRangeError with QuickJS's overflow
//     text, from JS_ThrowStackOverflow; JS_ThrowSyntaxError "%s" with
//     "stack overflow", from the regex compiler) and the regex
//     compiler's out of memory (a SyntaxError too) are made uncatchable
//     as soon as they are thrown, as the interrupt is: no catch or
//     finally of the guest's runs, and the error reaches the top with its
//     stack trace;
//   - the heap limit (JS_ThrowInternalError "out of memory", from
//     JS_ThrowOutOfMemory, or the regex engine's own) is an InternalError,
//     uncatchable already, except when the error object itself cannot be
//     allocated and QuickJS throws nothing at all;
//   - either way, once a limit is recorded the interrupt handler ends the
//     execution at its next poll, host calls end it at once, and a result
//     that still arrives is replaced by the limit's ResourceError.
var throwFunctions = map[string]engineThrow{
	"JS_ThrowRangeError":    throwRange,
	"JS_ThrowSyntaxError":   throwSyntax,
	"JS_ThrowInternalError": throwInternal,
}

type engineThrow int

const (
	throwRange engineThrow = iota
	throwSyntax
	throwInternal
)

// The texts QuickJS-NG passes to those functions for its limits.
var (
	stackOverflowFormat = []byte("Maximum call stack size exceeded")
	regexpOverflowText  = []byte("stack overflow")
	regexpOOMText       = []byte("out of memory")
	stringFormat        = []byte("%s")
	outOfMemoryFormat   = []byte("out of memory")
	regexpExecOOMFormat = []byte("out of memory in regexp execution")
)

// limitOf is the limit a call of the throw function kind with format
// (and, for "%s", its string argument arg) raises, or "" for any other
// error.
func limitOf(kind engineThrow, format []byte, arg func() []byte) string {
	switch kind {
	case throwRange:
		if bytes.Equal(format, stackOverflowFormat) {
			return contract.KindStack
		}
	case throwSyntax:
		// The regex compiler reports its limits as a SyntaxError.
		if bytes.Equal(format, stringFormat) {
			switch a := arg(); {
			case bytes.Equal(a, regexpOverflowText):
				return contract.KindStack
			case bytes.Equal(a, regexpOOMText):
				return contract.KindMemory
			}
		}
	case throwInternal:
		if bytes.Equal(format, outOfMemoryFormat) || bytes.Equal(format, regexpExecOOMFormat) {
			return contract.KindMemory
		}
	}
	return ""
}

// withThrowListeners returns ctx with the listener factory that compiles
// the watch into the throw functions. The compiled code differs from a
// compile without it; wazero's module ID, the compilation cache's key,
// covers which functions have a listener.
func withThrowListeners(ctx context.Context) context.Context {
	return experimental.WithFunctionListenerFactory(ctx, experimental.FunctionListenerFactoryFunc(
		func(def api.FunctionDefinition) experimental.FunctionListener {
			for _, name := range def.ExportNames() {
				if kind, ok := throwFunctions[name]; ok {
					return throwListener{kind}
				}
			}
			return nil
		}))
}

type throwListener struct{ kind engineThrow }

// Before sees the throw's arguments: (JSContext*, const char *fmt, va_list
// of the variadic arguments, as clang passes them on wasm32).
func (l throwListener) Before(ctx context.Context, mod api.Module, _ api.FunctionDefinition, params []uint64, _ experimental.StackIterator) {
	x := executionFrom(ctx)
	if x == nil || x.ph != phaseRun || x.limitHit != nil || len(params) < 3 {
		return
	}
	mem := mod.Memory()
	arg := func() []byte { return firstStringArg(mem, uint32(params[2])) }
	switch limitOf(l.kind, cString(mem, uint32(params[1]), 64), arg) {
	case contract.KindStack:
		x.limitHit = contract.ResourceErrorf(contract.KindStack, "stack overflow: over the %d-byte stack limit", x.limits.StackBytes)
	case contract.KindMemory:
		x.limitHit = outOfMemoryError(x.limits)
	default:
		return
	}
	x.uncatchableFrom = uint32(params[0])
}

// After makes the limit's error just thrown uncatchable: it takes the
// pending exception (the error QuickJS made), sets the flag the
// interrupt's error carries, and puts it back. (An InternalError has it
// already; the flag does nothing on a value that is not an Error object.)
func (throwListener) After(ctx context.Context, _ api.Module, _ api.FunctionDefinition, _ []uint64) {
	x := executionFrom(ctx)
	if x == nil || x.uncatchableFrom == 0 {
		return
	}
	jsCtx := uint64(x.uncatchableFrom)
	x.uncatchableFrom = 0
	vm := x.vm
	exc, err := vm.callRaw(vm.fn.jsGetException, jsCtx)
	if err != nil {
		return
	}
	if _, err := vm.callRaw(vm.fn.jsSetUncatchable, jsCtx, exc); err != nil {
		return
	}
	_, _ = vm.callRaw(vm.fn.jsThrow, jsCtx, exc)
}

func (throwListener) Abort(context.Context, api.Module, api.FunctionDefinition, error) {}

func outOfMemoryError(limits contract.Limits) *contract.Error {
	return contract.ResourceErrorf(contract.KindMemory, "out of memory: over the %d-byte memory limit", limits.MemoryBytes)
}

// cString reads the NUL-terminated string at ptr, at most max bytes (nil
// when it is longer, or out of range).
func cString(mem api.Memory, ptr, max uint32) []byte {
	view, ok := mem.Read(ptr, min(max+1, mem.Size()-min(ptr, mem.Size())))
	if !ok {
		return nil
	}
	if i := bytes.IndexByte(view, 0); i >= 0 {
		return view[:i]
	}
	return nil
}

// firstStringArg reads the first variadic argument, a char*, from the
// va_list at va.
func firstStringArg(mem api.Memory, va uint32) []byte {
	ptr, ok := mem.ReadUint32Le(va)
	if !ok {
		return nil
	}
	return cString(mem, ptr, 64)
}

// callRaw invokes an export whose values are JSValues (64 bits in this
// build), not the i32 call returns. It is only used from the throw
// listener, inside a call into the module; a failure leaves the instance
// broken, and the call that entered the guest returns it.
func (vm *VM) callRaw(f api.Function, params ...uint64) (uint64, error) {
	if vm.broken != nil {
		return 0, vm.broken
	}
	res, err := f.Call(vm.callCtx, params...)
	if err != nil {
		vm.broken = &errTrap{fmt.Errorf("engine: making a limit uncatchable: %w", err)}
		return 0, vm.broken
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

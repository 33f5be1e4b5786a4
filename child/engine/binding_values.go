package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// JS values through the C interface: evaluating a script, calling a
// function, reading a property, and the exception each may leave. A
// value is a JSValue box in guest memory, which the caller frees
// (freeValue).

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

// evalFlagModule is JS_EVAL_TYPE_MODULE: the source is an ES module, and
// evaluating it gives a promise of its namespace.
const evalFlagModule = 1

// evalCode evaluates src as a global script (flags 0) or a module
// (evalFlagModule).
func (vm *VM) evalCode(src, filename string, flags uint64) (uint32, error) {
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
	box, err := vm.call(vm.fn.eval, uint64(cp), uint64(cn), uint64(fp), flags)
	if err != nil {
		return 0, err
	}
	return vm.checkException(uint32(box))
}

// compileStripSource is qjs_compile's flag that leaves each function's
// source text out of the bytecode (JS_WRITE_OBJ_STRIP_SOURCE).
const compileStripSource = 1 << 4

// compileScript compiles src as a global script (evalFlags 0) or a module
// (evalFlagModule) to QuickJS bytecode, without running it, and copies
// the bytecode out of guest memory.
func (vm *VM) compileScript(src, filename string, evalFlags, flags uint64) ([]byte, error) {
	cp, cn, err := vm.writeBytes([]byte(src))
	if err != nil {
		return nil, err
	}
	defer vm.call(vm.fn.free, uint64(cp))
	fp, _, err := vm.writeBytes([]byte(filename))
	if err != nil {
		return nil, err
	}
	defer vm.call(vm.fn.free, uint64(fp))
	outLen := uint64(vm.scratch)
	buf, err := vm.call(vm.fn.compile, uint64(cp), uint64(cn), uint64(fp), evalFlags, flags, outLen)
	if err != nil {
		return nil, err
	}
	if buf == 0 {
		exc, err := vm.call(vm.fn.getException)
		if err != nil {
			return nil, err
		}
		return nil, &jsException{value: uint32(exc)}
	}
	defer vm.call(vm.fn.free, buf)
	n, ok := vm.mod.Memory().ReadUint32Le(uint32(outLen))
	if !ok {
		return nil, errors.New("engine: compiled bytecode's length out of range")
	}
	code, ok := vm.mod.Memory().Read(uint32(buf), n)
	if !ok {
		return nil, errors.New("engine: compiled bytecode out of range")
	}
	return bytes.Clone(code), nil
}

// evalBytecode runs bytecode compileScript made. The buffer it is copied
// into is zeroed before it is freed: in a heap snapshot, its pages are
// then zeros rather than a dead copy of the code.
func (vm *VM) evalBytecode(code []byte) (uint32, error) {
	p, n, err := vm.writeBytes(code)
	if err != nil {
		return 0, err
	}
	defer func() {
		if vm.broken == nil {
			if view, ok := vm.mod.Memory().Read(p, n); ok {
				clear(view)
			}
			vm.call(vm.fn.free, uint64(p))
		}
	}()
	box, err := vm.call(vm.fn.evalBytecode, uint64(p), uint64(n))
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

// isUncatchable asks the engine itself (JS_IsUncatchableError on the raw
// JSValue, which reads the object's uncatchable flag) rather than the C
// interface's qjs_is_uncatchable_error, which in this build answers true
// for any InternalError, even one the guest constructed.
func (vm *VM) isUncatchable(box uint32) (bool, error) {
	raw, ok := vm.mod.Memory().ReadUint64Le(box)
	if !ok {
		return false, errors.New("engine: value box out of range")
	}
	r, err := vm.call(vm.fn.jsIsUncatchable, raw)
	return r != 0, err
}

// isError reports whether value is an object of the engine's Error
// class (qjs_is_error reads the class, which no guest object can take
// on).
func (vm *VM) isError(value uint32) bool {
	isErr, err := vm.call(vm.fn.isError, uint64(value))
	return err == nil && isErr != 0
}

// mathRandom evaluates Math.random() in vm (name names the script): the
// heap snapshot's probe of the Math.random state.
func (vm *VM) mathRandom(name string) (float64, error) {
	box, err := vm.evalCode("Math.random()", name, 0)
	if err != nil {
		return 0, err
	}
	res, err := vm.mod.ExportedFunction("qjs_get_float64").Call(vm.callCtx, uint64(box))
	if err != nil {
		return 0, err
	}
	if len(res) != 1 {
		return 0, fmt.Errorf("qjs_get_float64 returned %d values", len(res))
	}
	return math.Float64frombits(res[0]), nil
}

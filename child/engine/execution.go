package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Run executes req on this VM, once. It never panics on guest behaviour
// and always returns an envelope.
//
// req.Limits must be resolved (contract.Resolve, by the supervisor or by
// Execute): Run enforces them and fills in nothing, so limits that are
// not resolved (a zero or negative field) are a ContractError. The
// envelope's Limits are req.Limits; Clamped is the resolver's to set.
func (vm *VM) Run(ctx context.Context, req contract.Request, opts RunOptions) (res contract.Result) {
	start := time.Now()
	limits := req.Limits
	res = contract.Result{Logs: []contract.LogEntry{}, Limits: limits}
	if err := limits.CheckResolved(); err != nil {
		res.Error = contract.AsError(err)
		return res
	}
	if vm.used {
		res.Error = contract.Errorf(contract.SandboxError, "engine: a VM runs exactly one execution")
		return res
	}
	vm.used = true
	if limits.MemoryBytes > vm.memoryBytes {
		res.Error = contract.Errorf(contract.SandboxError,
			"engine: VM was prepared for %d bytes of memory, request needs %d", vm.memoryBytes, limits.MemoryBytes)
		return res
	}
	if e := validate(req, limits); e != nil {
		res.Error = e
		return res
	}
	input := string(req.Input)
	if len(req.Input) == 0 {
		input = "null"
	}

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()

	vm.limits = limits
	vm.opts = opts
	vm.modules = req.Modules
	vm.parentCtx = ctx
	vm.deadline = start.Add(limits.Timeout)
	runCtx, cancel := context.WithDeadline(ctx, vm.deadline)
	defer cancel()
	vm.deadlineCtx = runCtx
	vm.callCtx = context.WithValue(runCtx, vmKey{}, vm)

	value, runErr := vm.execute(req.Code, input)

	vm.ph = phaseDone
	res.Logs = vm.logs
	if res.Logs == nil {
		res.Logs = []contract.LogEntry{}
	}
	res.Stats = contract.Stats{
		WallMS:          contract.Millis(time.Since(start)),
		CPUMS:           contract.Millis(threadCPU() - cpu0),
		PeakMemoryBytes: int64(vm.mod.Memory().Size()),
		PeakStackBytes:  vm.peakStack(),
		DataRequests:    vm.requests,
		LogBytes:        vm.logBytes,
	}
	if vm.broken == nil {
		if n, err := vm.call(vm.fn.getAllocatedSize); err == nil {
			res.Stats.HeapBytes = int64(uint32(n))
		}
	}
	if runErr != nil {
		res.Error = runErr
		return res
	}
	res.OK = true
	res.Value = json.RawMessage(value)
	return res
}

func breakoutError() *contract.Error {
	return &contract.Error{Type: contract.UserCodeError, Name: "SyntaxError",
		Message: "code must be the body of a function: it closes the function early (unbalanced braces)"}
}

// validate checks what can be checked before anything runs.
func validate(req contract.Request, limits contract.Limits) *contract.Error {
	if err := req.Check(); err != nil {
		return contract.AsError(err)
	}
	if err := contract.CheckCodeSize(req, limits); err != nil {
		return err
	}
	return nil
}

// execute drives one execution: compile the wrapper, run it, pump jobs
// until the result promise settles, stringify the value.
func (vm *VM) execute(code, input string) (string, *contract.Error) {
	if _, err := vm.call(vm.fn.setMemoryLimit, uint64(vm.limits.MemoryBytes)); err != nil {
		return "", vm.classify(err)
	}
	if _, err := vm.call(vm.fn.setMaxStackSize, uint64(vm.limits.StackBytes)); err != nil {
		return "", vm.classify(err)
	}
	source := wrapperHead + code + wrapperTail
	// Host functions stay closed while the wrapper is evaluated: if the
	// body breaks out of its function, whatever it runs outside can reach
	// nothing, and run() rejects it before the body is ever called.
	vm.ph = phaseCompile
	fnBox, err := vm.evalScript(source, "<code>")
	if err != nil {
		e := vm.classify(err)
		if e.Type == contract.UserCodeError && e.Name != "SyntaxError" {
			// Evaluating the wrapper only creates a function; anything
			// thrown from it ran outside the function body.
			return "", breakoutError()
		}
		return "", e
	}
	defer vm.freeValue(fnBox)
	srcBox, err := vm.newString(source[1 : len(source)-1])
	if err != nil {
		return "", vm.classify(err)
	}
	defer vm.freeValue(srcBox)
	inBox, err := vm.newString(input)
	if err != nil {
		return "", vm.classify(err)
	}
	defer vm.freeValue(inBox)

	vm.ph = phaseRun
	promise, err := vm.callFunction(vm.apiRun, fnBox, srcBox, inBox)
	if err != nil {
		return "", vm.classify(err)
	}
	defer vm.freeValue(promise)
	if isP, err := vm.call(vm.fn.isPromise, uint64(promise)); err != nil || isP == 0 {
		return "", vm.classify(errors.Join(err, errors.New("engine: wrapper did not return a promise")))
	}
	for {
		state, err := vm.call(vm.fn.promiseState, uint64(promise))
		if err != nil {
			return "", vm.classify(err)
		}
		if state != 0 {
			result, err := vm.call(vm.fn.promiseResult, uint64(promise))
			if err != nil {
				return "", vm.classify(err)
			}
			defer vm.freeValue(uint32(result))
			if state == 2 {
				return "", vm.classify(&jsException{value: uint32(result)})
			}
			return vm.finish(uint32(result))
		}
		if vm.timedOut() {
			return "", vm.timeoutError()
		}
		pending, err := vm.call(vm.fn.isJobPending)
		if err != nil {
			return "", vm.classify(err)
		}
		if pending == 0 {
			return "", &contract.Error{Type: contract.UserCodeError, Name: "Error",
				Message: "the result promise can never settle: no jobs are left to run (a promise nothing resolves?)"}
		}
		rc, err := vm.call(vm.fn.executePendingJob)
		if err != nil {
			return "", vm.classify(err)
		}
		if int32(rc) < 0 {
			exc, err := vm.call(vm.fn.getException)
			if err != nil {
				return "", vm.classify(err)
			}
			return "", vm.classify(&jsException{value: uint32(exc)})
		}
	}
}

// finish stringifies the settled value inside the guest and checks the
// output limit on the JSON bytes before copying them out.
func (vm *VM) finish(value uint32) (string, *contract.Error) {
	s, err := vm.callFunction(vm.apiFinish, value)
	if err != nil {
		e := vm.classify(err)
		if e.Type == contract.UserCodeError {
			e.Message = "the result is not JSON-serializable: " + e.Message
		}
		return "", e
	}
	defer vm.freeValue(s)
	b, n, ok, err := vm.stringBytes(s, vm.limits.OutputBytes)
	if err != nil {
		return "", vm.classify(err)
	}
	if !ok {
		return "", contract.Errorf(contract.SandboxError, "engine: stringified result is not a string")
	}
	if n > vm.limits.OutputBytes {
		return "", contract.ResourceErrorf(contract.KindOutput, "result is %d bytes of JSON, over the %d-byte output limit", n, vm.limits.OutputBytes)
	}
	// JSON.rawJSON can put a lone surrogate in the text as it is; the
	// envelope carries it escaped, as JSON.stringify writes one, which
	// makes the text longer.
	b = wtf8ToJSON(b)
	if n := int64(len(b)); n > vm.limits.OutputBytes {
		return "", contract.ResourceErrorf(contract.KindOutput, "result is %d bytes of JSON, over the %d-byte output limit", n, vm.limits.OutputBytes)
	}
	// JSON.stringify wrote JSON, so json.Valid refuses it only when it
	// nests deeper than encoding/json's 10,000 levels: no envelope can
	// carry that, and the supervisor would take it for a broken child.
	// Text that short cannot nest that deep, so most results skip the scan.
	if !validJSONDepth(b) {
		return "", contract.Errorf(contract.UserCodeError, "the result is not JSON-serializable: %s", contract.WhyNotJSON(b))
	}
	return string(b), nil
}

func (vm *VM) timedOut() bool {
	return vm.interrupted || !time.Now().Before(vm.deadline) || vm.parentCtx.Err() != nil
}

func (vm *VM) timeoutError() *contract.Error {
	if errors.Is(vm.parentCtx.Err(), context.Canceled) {
		return contract.Errorf(contract.AbortError, "execution cancelled by the caller")
	}
	return contract.Errorf(contract.TimeoutError, "execution exceeded its %v deadline", vm.limits.Timeout)
}

// classify turns a failure into a typed error from what the host knows:
// the deadline passed, the engine flagged an uncatchable error, the
// shadow stack reached its limit, or the instance trapped. The text of a
// guest exception alone never decides the type.
func (vm *VM) classify(err error) *contract.Error {
	if vm.fatal != nil {
		// A host function ended the execution (abort): the instance
		// trapped on purpose, and this is why.
		return vm.fatal
	}
	var exc *jsException
	if !errors.As(err, &exc) {
		var trap *errTrap
		if errors.As(err, &trap) {
			if vm.timedOut() {
				return vm.timeoutError()
			}
			if vm.stackLimitHit() {
				return contract.ResourceErrorf(contract.KindStack, "stack overflow: the wasm stack was exhausted (%v)", trap.err)
			}
			return contract.Errorf(contract.SandboxError, "engine: %v", err)
		}
		if errors.Is(err, errGuestOOM) {
			return contract.ResourceErrorf(contract.KindMemory, "out of memory: over the %d-byte memory limit", vm.limits.MemoryBytes)
		}
		return contract.Errorf(contract.SandboxError, "engine: %v", err)
	}
	defer vm.freeValue(exc.value)
	if vm.interrupted || vm.timedOut() {
		return vm.timeoutError()
	}
	uncatchable, terr := vm.isUncatchable(exc.value)
	if terr != nil {
		return vm.classify(terr)
	}
	if uncatchable {
		// Uncatchable errors are InternalErrors, which only the engine can
		// raise (the prelude removes the constructor). The interrupt was
		// handled above; what is left is the engine refusing memory: its
		// heap limit ("out of memory") or a size limit of its own ("string
		// too long").
		d, ok := vm.describe(exc.value)
		if !ok || d.Message == "out of memory" {
			return contract.ResourceErrorf(contract.KindMemory, "out of memory: over the %d-byte memory limit", vm.limits.MemoryBytes)
		}
		return &contract.Error{Type: contract.ResourceError, Kind: contract.KindMemory, Name: d.Name,
			Message: "engine limit: " + d.Message, Stack: d.Stack}
	}
	isNull, _ := vm.call(vm.fn.isNull, uint64(exc.value))
	if isNull != 0 && vm.mod.Memory().Size() >= (vm.maxPages-1)*wasmPage {
		// malloc failed on the page cap before QuickJS's own limit.
		return contract.ResourceErrorf(contract.KindMemory, "out of memory: wasm linear memory reached its %d-page cap", vm.maxPages)
	}
	d, _ := vm.describe(exc.value)
	if vm.timedOut() {
		return vm.timeoutError()
	}
	if vm.isStackOverflow(exc.value, d) {
		return &contract.Error{Type: contract.ResourceError, Kind: contract.KindStack, Name: d.Name,
			Message: fmt.Sprintf("stack overflow: over the %d-byte stack limit (%s)", vm.limits.StackBytes, d.Message), Stack: d.Stack}
	}
	return &contract.Error{Type: contract.UserCodeError, Name: d.Name, Message: d.Message, Stack: d.Stack}
}

// isStackOverflow reports whether a catchable exception is the engine's
// stack overflow: an object of the engine's Error class (qjs_is_error
// reads the class, which no guest object can take on: a plain object
// with the same name and message is not one) with the texts QuickJS
// throws on overflow (RangeError from the interpreter, SyntaxError from
// the regex compiler), thrown in an execution whose shadow stack reached
// the limit. QuickJS throws no InternalError on overflow, so that name
// is never taken for one.
func (vm *VM) isStackOverflow(value uint32, d described) bool {
	isErr, err := vm.call(vm.fn.isError, uint64(value))
	if err != nil || isErr == 0 {
		return false
	}
	return (d.Name == "RangeError" && d.Message == "Maximum call stack size exceeded" ||
		d.Name == "SyntaxError" && d.Message == "stack overflow") && vm.stackLimitHit()
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

type described struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
}

// describe asks the prelude for the thrown value's name, message and
// stack (own data properties only: no getters run).
// The execution is over by then, so the heap limit is raised by a little
// (the page cap has the headroom) to let describe allocate after an
// out-of-memory.
func (vm *VM) describe(value uint32) (described, bool) {
	vm.ph = phaseDone
	fallback := described{Message: "uncaught exception (could not be described)"}
	if _, err := vm.call(vm.fn.setMemoryLimit, uint64(vm.limits.MemoryBytes+1<<20)); err != nil {
		return fallback, false
	}
	box, err := vm.callFunction(vm.apiDescribe, value)
	if err != nil {
		var exc *jsException
		if errors.As(err, &exc) {
			vm.freeValue(exc.value)
		}
		return fallback, false
	}
	defer vm.freeValue(box)
	b, _, ok, err := vm.stringBytes(box, contract.MaxErrorBytes)
	if err != nil || !ok || b == nil {
		return fallback, false
	}
	var d described
	if json.Unmarshal(b, &d) != nil {
		return fallback, false
	}
	return d, true
}

// validJSONDepth reports whether b, JSON that JSON.stringify wrote, nests
// no deeper than contract.MaxJSONDepth, the only way such text fails
// json.Valid. Nesting that deep takes at least 2*MaxJSONDepth bytes, so
// shorter text needs no scan.
func validJSONDepth(b []byte) bool {
	return len(b) <= 2*contract.MaxJSONDepth || json.Valid(b)
}

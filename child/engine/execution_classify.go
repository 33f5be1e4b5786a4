package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wardenhq/warden/contract"
)

// classify turns a failure into a typed error from what the host knows:
// the deadline passed, the engine flagged an uncatchable error, the
// shadow stack reached its limit, or the instance trapped. The text of a
// guest exception alone never decides the type.
func (x *execution) classify(err error) *contract.Error {
	if x.fatal != nil {
		// A host function ended the execution (abort): the instance
		// trapped on purpose, and this is why.
		return x.fatal
	}
	var exc *jsException
	if !errors.As(err, &exc) {
		var trap *errTrap
		if errors.As(err, &trap) {
			if x.timedOut() {
				return x.timeoutError()
			}
			if x.stackLimitHit() {
				return contract.ResourceErrorf(contract.KindStack, "stack overflow: the wasm stack was exhausted (%v)", trap.err)
			}
			return contract.Errorf(contract.SandboxError, "engine: %v", err)
		}
		if errors.Is(err, errGuestOOM) {
			return contract.ResourceErrorf(contract.KindMemory, "out of memory: over the %d-byte memory limit", x.limits.MemoryBytes)
		}
		return contract.Errorf(contract.SandboxError, "engine: %v", err)
	}
	defer x.vm.freeValue(exc.value)
	if x.interrupted || x.timedOut() {
		return x.timeoutError()
	}
	uncatchable, terr := x.vm.isUncatchable(exc.value)
	if terr != nil {
		return x.classify(terr)
	}
	if uncatchable {
		// Uncatchable errors are InternalErrors, which only the engine can
		// raise (the prelude removes the constructor). The interrupt was
		// handled above; what is left is the engine refusing memory: its
		// heap limit ("out of memory") or a size limit of its own ("string
		// too long").
		d, ok := x.describe(exc.value)
		if !ok || d.Message == "out of memory" {
			return contract.ResourceErrorf(contract.KindMemory, "out of memory: over the %d-byte memory limit", x.limits.MemoryBytes)
		}
		return &contract.Error{Type: contract.ResourceError, Kind: contract.KindMemory, Name: d.Name,
			Message: "engine limit: " + d.Message, Stack: d.Stack}
	}
	if x.vm.isNull(exc.value) && x.vm.memorySize() >= (x.vm.maxPages-1)*wasmPage {
		// malloc failed on the page cap before QuickJS's own limit.
		return contract.ResourceErrorf(contract.KindMemory, "out of memory: wasm linear memory reached its %d-page cap", x.vm.maxPages)
	}
	d, _ := x.describe(exc.value)
	if x.timedOut() {
		return x.timeoutError()
	}
	if x.isStackOverflow(exc.value, d) {
		return &contract.Error{Type: contract.ResourceError, Kind: contract.KindStack, Name: d.Name,
			Message: fmt.Sprintf("stack overflow: over the %d-byte stack limit (%s)", x.limits.StackBytes, d.Message), Stack: d.Stack}
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
func (x *execution) isStackOverflow(value uint32, d described) bool {
	if !x.vm.isError(value) {
		return false
	}
	return (d.Name == "RangeError" && d.Message == "Maximum call stack size exceeded" ||
		d.Name == "SyntaxError" && d.Message == "stack overflow") && x.stackLimitHit()
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
func (x *execution) describe(value uint32) (described, bool) {
	x.ph = phaseDone
	fallback := described{Message: "uncaught exception (could not be described)"}
	if _, err := x.vm.call(x.vm.fn.setMemoryLimit, uint64(x.limits.MemoryBytes+1<<20)); err != nil {
		return fallback, false
	}
	box, err := x.vm.callFunction(x.vm.api.describe, value)
	if err != nil {
		var exc *jsException
		if errors.As(err, &exc) {
			x.vm.freeValue(exc.value)
		}
		return fallback, false
	}
	defer x.vm.freeValue(box)
	b, _, ok, err := x.vm.stringBytes(box, contract.MaxErrorBytes)
	if err != nil || !ok || b == nil {
		return fallback, false
	}
	var d described
	if json.Unmarshal(b, &d) != nil {
		return fallback, false
	}
	return d, true
}

// stackLimitHit reports whether the stack reached QuickJS's limit.
func (x *execution) stackLimitHit() bool {
	const slack = 16 << 10
	return x.vm.peakStack() >= x.limits.StackBytes-slack
}

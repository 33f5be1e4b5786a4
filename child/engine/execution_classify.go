package engine

import (
	"encoding/json"
	"errors"

	"github.com/wardenhq/warden/contract"
)

// classify turns a failure into a typed error from what the host knows:
// a host function ended the execution, the engine raised a limit (seen
// where it throws, binding_throws.go), the deadline passed, the engine
// flagged an uncatchable error, or the instance trapped (with the shadow
// stack at its limit, or not). What a guest throws never decides the
// type: only whether an error is the guest's.
func (x *execution) classify(err error) *contract.Error {
	if x.fatal != nil {
		// A host function ended the execution (abort): the instance
		// trapped on purpose, and this is why.
		return x.fatal
	}
	if x.limitHit != nil {
		return x.limitError(err)
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
	d, _ := x.describe(exc.value)
	if x.timedOut() {
		return x.timeoutError()
	}
	return &contract.Error{Type: contract.UserCodeError, Name: d.Name, Message: d.Message, Stack: d.Stack}
}

// limitError is the limit the engine raised (binding_throws.go), whatever
// ended the run after it. When what reached the top is the engine's own
// stack-overflow error (an object of its Error class, made uncatchable
// as it was thrown), its name and stack say where the recursion was.
func (x *execution) limitError(err error) *contract.Error {
	e := *x.limitHit
	var exc *jsException
	if !errors.As(err, &exc) {
		return &e
	}
	defer x.vm.freeValue(exc.value)
	if e.Kind != contract.KindStack || !x.vm.isError(exc.value) {
		return &e
	}
	if unc, uerr := x.vm.isUncatchable(exc.value); uerr != nil || !unc {
		return &e
	}
	// The interrupt's error is uncatchable too: only the overflow's own
	// texts (which the guest cannot have given an uncatchable error) say
	// it is the overflow.
	if d, ok := x.describe(exc.value); ok && (d.Message == string(stackOverflowFormat) || d.Message == string(regexpOverflowText)) {
		e.Name, e.Stack = d.Name, d.Stack
		e.Message += " (" + d.Message + ")"
	}
	return &e
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
	if _, err := x.vm.call(x.vm.fn.setMemoryLimit, uint64(x.heapLimit()+1<<20)); err != nil {
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

package engine

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"time"

	"github.com/wardenhq/warden/contract"
)

// The wrapper around user code. The code starts on the wrapper's second
// line, so that its first line's columns are the user's too; the
// prelude's mapPosition takes the one line off every position in it.
const (
	wrapperHead = "(async function (input) {\n"
	wrapperTail = "\n})"
)

// phase is where an execution is: what the host imports allow.
type phase int

const (
	phaseCompile phase = iota // setting limits, evaluating the wrapper: no host access
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

// execution is one Run on a VM: the request's limits, deadline and hooks,
// what it has used of them, and how it ended. The host imports that need
// the request's state get the execution (executionFrom) and reach the
// module through vm.
type execution struct {
	vm *VM

	ph          phase
	parentCtx   context.Context
	deadlineCtx context.Context // parentCtx bounded by the deadline
	deadline    time.Time
	interrupted bool
	limits      contract.Limits
	opts        RunOptions
	req         contract.Request
	// det is the deterministic mode's stream and virtual clock; nil
	// when the request is not deterministic.
	det *determinism
	// queued are the host.request calls waiting for the data handler, in
	// order (serveRequest); promise is the result's promise, which the
	// loop settles.
	queued  []contract.PendingRequest
	promise uint32
	// park is set when the request may park (Request.Park); parked is
	// the state once it has (park.go). started and cpu0 are when the
	// execution began, for the time a parked state carries; monoOffset
	// moves the guest's monotonic clock on in a resumed execution.
	park       bool
	parked     *contract.Parked
	started    time.Time
	cpu0       time.Duration
	monoOffset int64
	modules    map[string]string
	// source is run's (the wrapper without its parentheses): with the
	// modules, what the source host function answers from; lineStarts
	// indexes their lines (execution_source.go).
	source     string
	lineStarts map[string][]int
	// ts is the request's TypeScript made JavaScript, and the maps back
	// (execution_module.go).
	ts *transpiled
	// imports is the request's allow-list of registered modules (nil:
	// all of them).
	imports []string

	logs      []contract.LogEntry
	logBytes  int64 // what the logs take as JSON (contract.LogEntryCost of each)
	logsCut   bool
	requests  int   // host.request calls made
	dataBytes int64 // host.request traffic: names and arguments sent, answers received
	// fatal is the error that ended the execution from inside a host
	// function (a data limit, a refused nested call); classify reports it.
	fatal *contract.Error
	// limitHit is the limit the engine itself raised while the user's
	// code ran (binding_throws.go): it decides the outcome, whatever the
	// guest throws or returns after it. uncatchableFrom is the JSContext*
	// of an overflow being thrown, until the listener has made it
	// uncatchable.
	limitHit        *contract.Error
	uncatchableFrom uint32
}

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
	if e := vm.admit(req); e != nil {
		res.Error = e
		return res
	}
	input := string(req.Input)
	if len(req.Input) == 0 {
		input = "null"
	}

	ts := transpile(req)

	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()

	x, cancel := vm.startExecution(ctx, limits, opts, req.Modules, start.Add(limits.Timeout))
	defer cancel()
	x.imports, x.ts, x.req, x.park, x.started, x.cpu0 = req.Imports, ts, req, req.Park, start, cpu0
	value, runErr := x.execute(req, input)
	return x.envelope(res, value, runErr, 0, 0)
}

// envelope is the envelope of x once its run ended with value or runErr;
// wasWall and wasCPU are what it used before it parked, if it did.
func (x *execution) envelope(res contract.Result, value string, runErr *contract.Error, wasWall, wasCPU time.Duration) contract.Result {
	vm := x.vm
	if runErr == nil && x.limitHit != nil {
		// The guest got past a limit the engine raised (QuickJS swallowed
		// it, or the guest caught a value the engine could not make
		// uncatchable): the limit still ends the execution.
		runErr = x.limitHit
	}
	x.ph = phaseDone
	res.Logs = x.logs
	if res.Logs == nil {
		res.Logs = []contract.LogEntry{}
	}
	res.Stats = contract.Stats{
		WallMS:          contract.Millis(wasWall + time.Since(x.started)),
		CPUMS:           contract.Millis(wasCPU + threadCPU() - x.cpu0),
		PeakMemoryBytes: int64(vm.memorySize()),
		PeakStackBytes:  vm.peakStack(),
		DataRequests:    x.requests,
		LogBytes:        x.logBytes,
	}
	if n, ok := vm.heapBytes(); ok {
		res.Stats.HeapBytes = n
	}
	switch {
	case runErr == parkedOutcome:
		res.Parked = x.parked
	case runErr != nil:
		res.Error = runErr
	default:
		res.OK = true
		res.Value = json.RawMessage(value)
	}
	return res
}

// admit checks what can be checked before anything runs, and takes the
// VM's one execution.
func (vm *VM) admit(req contract.Request) *contract.Error {
	limits := req.Limits
	if err := limits.CheckResolved(); err != nil {
		return contract.AsError(err)
	}
	if vm.used {
		return contract.Errorf(contract.SandboxError, "engine: a VM runs exactly one execution")
	}
	vm.used = true
	if limits.MemoryBytes > vm.memoryBytes {
		return contract.Errorf(contract.SandboxError,
			"engine: VM was prepared for %d bytes of memory, request needs %d", vm.memoryBytes, limits.MemoryBytes)
	}
	if err := req.Check(); err != nil {
		return contract.AsError(err)
	}
	if err := contract.CheckCodeSize(req, limits); err != nil {
		return err
	}
	for name := range req.Modules {
		if vm.reg.has(name) {
			return contract.Errorf(contract.ContractError, "module %q is registered with the supervisor: a request's modules cannot replace it", name)
		}
	}
	return nil
}

// startExecution makes an execution on vm under ctx, bounded by deadline,
// and binds it to every later call into the module, so that the host
// imports find it. cancel releases the deadline's timer.
func (vm *VM) startExecution(ctx context.Context, limits contract.Limits, opts RunOptions, modules map[string]string, deadline time.Time) (x *execution, cancel context.CancelFunc) {
	x = &execution{vm: vm, ph: phaseCompile, limits: limits, opts: opts, modules: modules, parentCtx: ctx, deadline: deadline}
	x.deadlineCtx, cancel = context.WithDeadline(ctx, deadline)
	vm.bindContext(context.WithValue(x.deadlineCtx, executionKey{}, x))
	return x, cancel
}

func breakoutError() *contract.Error {
	return &contract.Error{Type: contract.UserCodeError, Name: "SyntaxError",
		Message: "code must be the body of a function: it closes the function early (unbalanced braces)"}
}

// execute drives one execution: compile the code in its form (body or
// module, TypeScript's types stripped first), run it, pump jobs until
// the result promise settles, stringify the value.
func (x *execution) execute(req contract.Request, input string) (string, *contract.Error) {
	vm := x.vm
	if req.Deterministic != nil {
		x.det = newDeterminism(*req.Deterministic)
		if err := x.beginDeterministic(); err != nil {
			return "", x.classify(err)
		}
	}
	if _, err := vm.call(vm.fn.setMemoryLimit, uint64(x.heapLimit())); err != nil {
		return "", x.classify(err)
	}
	if _, err := vm.call(vm.fn.setMaxStackSize, uint64(x.limits.StackBytes)); err != nil {
		return "", x.classify(err)
	}
	if x.ts.err != nil {
		return "", x.ts.err
	}
	code, module := x.ts.code, x.ts.module
	if module {
		return x.executeModule(code, input)
	}
	fnBox, e := x.compileBody(code)
	if e != nil {
		if req.Format == "" && !req.IsTypeScript() && e.Name == "SyntaxError" {
			// Code with import or export declarations is never a
			// function body: it runs as a module if it compiles as one.
			me := x.compileModule(code)
			if me == nil {
				return x.executeModule(code, input)
			}
			return "", furthest(e, me)
		}
		return "", e
	}
	defer vm.freeValue(fnBox)
	srcBox, err := vm.newString(x.source)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(srcBox)
	inBox, err := vm.newString(input)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(inBox)

	modeBox, err := vm.newString(x.modeText())
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(modeBox)

	x.ph = phaseRun
	promise, err := vm.callFunction(vm.api.run, fnBox, srcBox, inBox, modeBox)
	if err != nil {
		return "", x.classify(err)
	}
	defer vm.freeValue(promise)
	return x.settleResult(promise)
}

// compileBody evaluates the wrapper around a function body, which only
// makes the function: host functions stay closed meanwhile, so that if
// the body breaks out of its function, whatever it runs outside can
// reach nothing, and run() rejects it before the body is ever called.
func (x *execution) compileBody(code string) (uint32, *contract.Error) {
	source := wrapperHead + code + wrapperTail
	x.setSource(source[1 : len(source)-1])
	x.ph = phaseCompile
	fnBox, err := x.vm.evalCode(source, "<code>", 0)
	if err != nil {
		e := x.classify(err)
		if e.Type == contract.UserCodeError && e.Name != "SyntaxError" {
			// Evaluating the wrapper only creates a function; anything
			// thrown from it ran outside the function body.
			return 0, breakoutError()
		}
		return 0, e
	}
	return fnBox, nil
}

// settleResult checks that the code's run gave a promise and settles it.
func (x *execution) settleResult(promise uint32) (string, *contract.Error) {
	vm := x.vm
	if isP, err := vm.call(vm.fn.isPromise, uint64(promise)); err != nil || isP == 0 {
		return "", x.classify(errors.Join(err, errors.New("engine: the code's run did not return a promise")))
	}
	return x.settle(promise)
}

// settle runs jobs until the result promise settles (or the deadline
// passes), then stringifies its value or classifies its rejection. With
// no job pending it runs the next due timer callback, or waits for it;
// timers still pending when the promise settles are dropped.
func (x *execution) settle(promise uint32) (string, *contract.Error) {
	vm := x.vm
	x.promise = promise
	for {
		state, err := vm.call(vm.fn.promiseState, uint64(promise))
		if err != nil {
			return "", x.classify(err)
		}
		if state != 0 {
			result, err := vm.call(vm.fn.promiseResult, uint64(promise))
			if err != nil {
				return "", x.classify(err)
			}
			defer vm.freeValue(uint32(result))
			x.dropRequests()
			if state == 2 {
				return "", x.classify(&jsException{value: uint32(result)})
			}
			return x.finish(uint32(result))
		}
		if x.timedOut() {
			return "", x.timeoutError()
		}
		pending, err := vm.call(vm.fn.isJobPending)
		if err != nil {
			return "", x.classify(err)
		}
		if pending == 0 && len(x.queued) > 0 {
			if e := x.serveRequest(); e != nil {
				return "", e
			}
			continue
		}
		if pending == 0 {
			step, wait, err := x.runTimers()
			switch {
			case err != nil:
				return "", x.classify(err)
			case step == timerNone:
				return "", &contract.Error{Type: contract.UserCodeError, Name: "Error",
					Message: "the result promise can never settle: no jobs are left to run and no timer keeps it waiting (a promise nothing resolves, or only unref'd timers?)"}
			case step == timerWait && x.det != nil:
				// The virtual clock moves to the timer instead.
				x.det.elapsed += wait
			case step == timerWait:
				x.sleep(wait)
			}
			continue
		}
		rc, err := vm.call(vm.fn.executePendingJob)
		if err != nil {
			return "", x.classify(err)
		}
		if int32(rc) < 0 {
			exc, err := vm.call(vm.fn.getException)
			if err != nil {
				return "", x.classify(err)
			}
			return "", x.classify(&jsException{value: uint32(exc)})
		}
	}
}

// finish stringifies the settled value inside the guest and checks the
// output limit on the JSON bytes before copying them out.
func (x *execution) finish(value uint32) (string, *contract.Error) {
	vm := x.vm
	s, err := vm.callFunction(vm.api.finish, value)
	if err != nil {
		e := x.classify(err)
		if e.Type == contract.UserCodeError {
			e.Message = "the result is not JSON-serializable: " + e.Message
		}
		return "", e
	}
	defer vm.freeValue(s)
	b, n, ok, err := vm.stringBytes(s, x.limits.OutputBytes)
	if err != nil {
		return "", x.classify(err)
	}
	if !ok {
		return "", contract.Errorf(contract.SandboxError, "engine: stringified result is not a string")
	}
	if n > x.limits.OutputBytes {
		return "", contract.ResourceErrorf(contract.KindOutput, "result is %d bytes of JSON, over the %d-byte output limit", n, x.limits.OutputBytes)
	}
	// JSON.rawJSON can put a lone surrogate in the text as it is; the
	// envelope carries it escaped, as JSON.stringify writes one, which
	// makes the text longer.
	b = wtf8ToJSON(b)
	if n := int64(len(b)); n > x.limits.OutputBytes {
		return "", contract.ResourceErrorf(contract.KindOutput, "result is %d bytes of JSON, over the %d-byte output limit", n, x.limits.OutputBytes)
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

// shouldInterrupt answers QuickJS's interrupt handler: stop once the
// deadline has passed, the caller has gone, a host function has ended
// the execution, or the engine has raised a limit. Once the execution is
// done only the first two stop the prelude's describe, which rewrites
// the stack of the error that ended it (a limit's too).
func (x *execution) shouldInterrupt() bool {
	if x.interrupted || x.ph != phaseDone && (x.fatal != nil || x.limitHit != nil) {
		return true
	}
	if !x.deadline.IsZero() && !time.Now().Before(x.deadline) || x.parentCtx != nil && x.parentCtx.Err() != nil {
		x.interrupted = true
		return true
	}
	return false
}

// heapLimit is QuickJS's heap limit for the request's code: its
// memory_bytes beyond the runtime's own heap.
func (x *execution) heapLimit() int64 { return x.limits.MemoryBytes + x.vm.runtimeHeap }

func (x *execution) timedOut() bool {
	return x.interrupted || !time.Now().Before(x.deadline) || x.parentCtx.Err() != nil
}

func (x *execution) timeoutError() *contract.Error {
	if errors.Is(x.parentCtx.Err(), context.Canceled) {
		return contract.Errorf(contract.AbortError, "execution cancelled by the caller")
	}
	return contract.Errorf(contract.TimeoutError, "execution exceeded its %v deadline", x.limits.Timeout)
}

// abort ends the execution from inside a host function with err: the
// instance traps (VM.trap) and classify reports err. No guest code runs
// after it.
func (x *execution) abort(err *contract.Error) {
	if x.fatal == nil {
		x.fatal = err
	}
	x.vm.trap(err)
}

// validJSONDepth reports whether b, JSON that JSON.stringify wrote, nests
// no deeper than contract.MaxJSONDepth, the only way such text fails
// json.Valid. Nesting that deep takes at least 2*MaxJSONDepth bytes, so
// shorter text needs no scan.
func validJSONDepth(b []byte) bool {
	return len(b) <= 2*contract.MaxJSONDepth || json.Valid(b)
}

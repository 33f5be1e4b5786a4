package engine

import (
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/wardenhq/warden/contract"
)

//go:embed prelude.js
var preludeSource string

// Names of the host functions handed to the prelude. They are never
// globals: the prelude closes over them.
const (
	hostFnLog     = "warden_log"
	hostFnSHA256  = "warden_sha256"
	hostFnRequest = "warden_request"
)

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
	logBytes    int64
	logsCut     bool
	requests    int
}

type exports struct {
	initialize, qjsInit, setMemoryLimit, setMaxStackSize, setInterruptHandler, setModuleLoader api.Function
	malloc, free, eval, call, freeValue, isException, getException, isString, getStringLen     api.Function
	freeCString, newString, newError, definePropString, throw, newHostFunction, getPropString  api.Function
	promiseState, promiseResult, isPromise, isJobPending, executePendingJob, jsIsUncatchable   api.Function
	getAllocatedSize, isNull                                                                   api.Function
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
// same error, so a corrupted instance is never used again.
func (vm *VM) call(f api.Function, params ...uint64) (uint64, error) {
	if vm.broken != nil {
		return 0, vm.broken
	}
	res, err := f.Call(vm.callCtx, params...)
	if err != nil {
		vm.broken = &errTrap{err}
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
func (e *Engine) NewVM(ctx context.Context, memoryBytes int64) (*VM, error) {
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
	if err := vm.init(ctx); err != nil {
		mod.Close(ctx)
		return nil, err
	}
	return vm, nil
}

func (vm *VM) init(ctx context.Context) error {
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
		{vm.fn.setMaxStackSize, uint64(vm.engine.cfg.Defaults.StackBytes)},
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
	factory, err := vm.evalScript(preludeSource, "<warden-prelude>")
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

// writeBytes copies b into a fresh NUL-terminated guest allocation.
func (vm *VM) writeBytes(b []byte) (ptr, n uint32, err error) {
	p, err := vm.call(vm.fn.malloc, uint64(len(b)+1))
	if err != nil {
		return 0, 0, err
	}
	if p == 0 {
		return 0, 0, errGuestOOM
	}
	mem := vm.mod.Memory()
	if !mem.Write(uint32(p), b) || !mem.WriteByte(uint32(p)+uint32(len(b)), 0) {
		return 0, 0, errors.New("engine: write out of range")
	}
	return uint32(p), uint32(len(b)), nil
}

var errGuestOOM = errors.New("engine: guest allocation failed")

func (vm *VM) freeValue(box uint32) {
	if box != 0 {
		vm.call(vm.fn.freeValue, uint64(box))
	}
}

// stringLen returns a JS string value's WTF-8 length without copying;
// ok is false when the value is not a string. It never converts: a
// non-string is never turned into one by running guest code (toString).
func (vm *VM) stringBytes(box uint32, max int64) (b []byte, n int64, ok bool, err error) {
	isStr, err := vm.call(vm.fn.isString, uint64(box))
	if err != nil || isStr == 0 {
		return nil, 0, false, err
	}
	cstr, err := vm.call(vm.fn.getStringLen, uint64(box), uint64(vm.scratch))
	if err != nil {
		return nil, 0, false, err
	}
	if cstr == 0 {
		return nil, 0, false, errGuestOOM
	}
	defer vm.call(vm.fn.freeCString, cstr)
	mem := vm.mod.Memory()
	l, _ := mem.ReadUint32Le(vm.scratch)
	if max >= 0 && int64(l) > max {
		return nil, int64(l), true, nil
	}
	view, okRead := mem.Read(uint32(cstr), l)
	if !okRead {
		return nil, 0, false, errors.New("engine: string out of range")
	}
	return append([]byte(nil), view...), int64(l), true, nil
}

// newString makes a JS string from Go text. It returns 0 with an
// exception pending when the guest is out of memory.
func (vm *VM) newString(s string) (uint32, error) {
	p, n, err := vm.writeBytes([]byte(s))
	if err != nil {
		return 0, err
	}
	defer vm.call(vm.fn.free, uint64(p))
	box, err := vm.call(vm.fn.newString, uint64(p), uint64(n))
	if err != nil {
		return 0, err
	}
	isExc, err := vm.call(vm.fn.isException, box)
	if err != nil {
		return 0, err
	}
	if isExc != 0 {
		vm.freeValue(uint32(box))
		return 0, errGuestOOM
	}
	return uint32(box), nil
}

// throwError makes the current host call throw an Error with msg; it
// returns the 0 the trampoline expects. It defines "message" rather than
// setting it, so no guest setter can run.
func (vm *VM) throwError(msg string) uint32 {
	errBox, err := vm.call(vm.fn.newError)
	if err != nil || errBox == 0 {
		return 0
	}
	defer vm.freeValue(uint32(errBox))
	if msgBox, err := vm.newString(msg); err == nil {
		vm.call(vm.fn.definePropString, errBox, uint64(vm.messageKey), uint64(msgBox), 3)
		vm.freeValue(msgBox)
	}
	if exc, err := vm.call(vm.fn.throw, errBox); err == nil {
		vm.freeValue(uint32(exc))
	}
	return 0
}

// dispatch serves the prelude's host functions.
func (vm *VM) dispatch(ctx context.Context, namePtr, nameLen, argc, argv uint32) uint32 {
	mem := vm.mod.Memory()
	nameView, ok := mem.Read(namePtr, nameLen)
	if !ok {
		return vm.throwError("warden: bad host call")
	}
	name := string(nameView)
	if vm.ph != phaseRun {
		return vm.throwError("host functions are not available outside the execution")
	}
	// Each argument is already a copy out of linear memory (stringBytes);
	// it is converted to UTF-8 once, where it is used.
	args := make([][]byte, 0, 2)
	for i := uint32(0); i < argc && i < 2; i++ {
		box, ok := mem.ReadUint32Le(argv + 4*i)
		if !ok {
			return vm.throwError("warden: bad host call arguments")
		}
		b, _, isStr, err := vm.stringBytes(box, -1)
		if err != nil {
			return 0
		}
		if !isStr {
			return vm.throwError(name + ": arguments must be strings")
		}
		args = append(args, b)
	}
	var answer string
	switch {
	case name == hostFnLog && len(args) == 2:
		vm.addLog(string(args[0]), args[1])
		return vm.returnString("")
	case name == hostFnSHA256 && len(args) == 1:
		answer = sha256Hex(wtf8ToUTF8(args[0]))
	case name == hostFnRequest && len(args) == 2:
		answer = vm.request(string(args[0]), args[1])
	default:
		return vm.throwError("warden: unknown host call " + name)
	}
	return vm.returnString(answer)
}

func (vm *VM) returnString(s string) uint32 {
	box, err := vm.newString(s)
	if err != nil {
		return 0
	}
	return box
}

const logTruncatedMarker = "[warden: log output truncated: over the output limit]"

func (vm *VM) addLog(level string, raw []byte) {
	if vm.logsCut {
		return
	}
	text := string(wtf8ToUTF8(raw))
	size := int64(len(level) + len(text))
	entry := contract.LogEntry{Level: level, Text: text}
	if vm.logBytes+size > vm.limits.OutputBytes {
		vm.logsCut = true
		entry = contract.LogEntry{Level: "warn", Text: logTruncatedMarker}
	} else {
		vm.logBytes += size
	}
	vm.logs = append(vm.logs, entry)
	if vm.opts.OnLog != nil {
		vm.opts.OnLog(entry)
	}
}

// request answers host.request: "1" + JSON on success, "0" + message on
// failure (the prelude turns them into a settled promise).
func (vm *VM) request(name string, argsJSON []byte) string {
	vm.requests++
	if vm.opts.Handler == nil {
		return "0host.request: no data handler is configured for this execution"
	}
	ans, err := vm.opts.Handler(vm.deadlineCtx, name, json.RawMessage(wtf8ToUTF8(argsJSON)))
	if err != nil {
		return "0" + err.Error()
	}
	if len(ans) == 0 {
		return "1null"
	}
	if !json.Valid(ans) {
		return "0host.request: the data handler returned invalid JSON for " + name
	}
	return "1" + string(ans)
}

func (vm *VM) normalizeModule(ctx context.Context, basePtr, namePtr uint32) uint32 {
	name, ok := vm.readCString(namePtr, 4096)
	if !ok {
		return vm.throwError("module specifier too long")
	}
	p, _, err := vm.writeBytes([]byte(name))
	if err != nil {
		return 0
	}
	return p
}

func (vm *VM) loadModule(ctx context.Context, namePtr, outLenPtr uint32) uint32 {
	name, ok := vm.readCString(namePtr, 4096)
	if !ok {
		return vm.throwError("module specifier too long")
	}
	src, found := vm.modules[name]
	if !found || vm.ph != phaseRun {
		return vm.throwError(fmt.Sprintf("cannot find module %q: only the modules given with the request can be imported", name))
	}
	p, n, err := vm.writeBytes([]byte(src))
	if err != nil {
		return 0
	}
	vm.mod.Memory().WriteUint32Le(outLenPtr, n)
	return p
}

func (vm *VM) readCString(p uint32, max uint32) (string, bool) {
	mem := vm.mod.Memory()
	var b []byte
	for i := uint32(0); i <= max; i++ {
		c, ok := mem.ReadByte(p + i)
		if !ok {
			return "", false
		}
		if c == 0 {
			return string(b), true
		}
		b = append(b, c)
	}
	return "", false
}

func (vm *VM) shouldInterrupt(ctx context.Context) bool {
	if vm.ph == phaseInit {
		return false
	}
	if vm.interrupted {
		return true
	}
	if !vm.deadline.IsZero() && !time.Now().Before(vm.deadline) || vm.parentCtx != nil && vm.parentCtx.Err() != nil {
		vm.interrupted = true
		return true
	}
	return false
}

// peakStack reports how deep the shadow stack went: the instance is
// fresh, so the stack region starts zeroed and the lowest non-zero byte
// below stackTop marks the deepest frame. This is how the host knows,
// from its own observation, that QuickJS hit its stack limit. Pages the
// kernel says were never touched are zero and are not read: in a fresh
// child most of the 1 MiB region is untouched, and reading it would
// fault every page in (3 ms of a warm execution, measured).
func (vm *VM) peakStack() int64 {
	view, ok := vm.mod.Memory().Read(0, vm.stackTop)
	if !ok {
		return 0
	}
	return int64(len(view)) - int64(firstNonZero(view))
}

// firstNonZero is the index of the first non-zero byte of b, or len(b).
func firstNonZero(b []byte) int {
	untouched, pageSize, ok := untouchedPages(b)
	base := 0
	if ok {
		// b need not start on a page boundary: page k covers b from
		// k*pageSize-offset on.
		base = int(uintptr(unsafe.Pointer(&b[0])) % uintptr(pageSize))
	}
	i := 0
	for i < len(b) {
		if ok {
			page := (base + i) / pageSize
			if untouched[page] {
				i = (page+1)*pageSize - base
				continue
			}
		}
		// Scan to the end of this page (or of b), a word at a time.
		end := len(b)
		if ok {
			end = min(len(b), ((base+i)/pageSize+1)*pageSize-base)
		}
		for ; i+8 <= end; i += 8 {
			if binary.LittleEndian.Uint64(b[i:]) != 0 {
				break
			}
		}
		for ; i < end; i++ {
			if b[i] != 0 {
				return i
			}
		}
	}
	return len(b)
}

// stackLimitHit reports whether the stack reached QuickJS's limit.
func (vm *VM) stackLimitHit() bool {
	const slack = 16 << 10
	return vm.peakStack() >= vm.limits.StackBytes-slack
}

// wtf8ToUTF8 replaces each surrogate code point that QuickJS encodes as a
// 3-byte WTF-8 sequence (ED A0..BF xx) with U+FFFD, and joins a
// high/low pair encoded separately into one 4-byte sequence: exactly
// what Go's utf16.Decode and the WHATWG TextEncoder do with lone
// surrogates. Valid UTF-8 passes through unchanged.
func wtf8ToUTF8(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if i+2 < len(b) && b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2] >= 0x80 && b[i+2] <= 0xBF {
			hi := rune(0xD000) | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			if hi < 0xDC00 && i+5 < len(b) && b[i+3] == 0xED && b[i+4] >= 0xB0 && b[i+4] <= 0xBF && b[i+5] >= 0x80 && b[i+5] <= 0xBF {
				lo := rune(0xD000) | rune(b[i+4]&0x3F)<<6 | rune(b[i+5]&0x3F)
				out = utf8.AppendRune(out, 0x10000+(hi-0xD800)<<10+(lo-0xDC00))
				i += 6
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
			i += 3
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		out = utf8.AppendRune(out, r)
		i += size
	}
	return out
}

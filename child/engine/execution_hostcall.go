package engine

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/wardenhq/warden/contract"
)

// Host-call dispatch: the host functions the prelude closes over.
// Each checks what it is given before it copies anything out of guest
// memory, and copies no more than the budget the bytes count towards:
// the output limit for logs, nothing at all for sha256 (it hashes in
// place), the data limit for host.request. Logs and host.request count
// against the execution's limits and are its methods; sha256 needs
// nothing of the execution and is the binding's (VM.hostSHA256), as are
// the crypto global's (crypto_host.go).

// Names of the host functions handed to the prelude. They are never
// globals: the prelude closes over them.
const (
	hostFnLog     = "warden_log"
	hostFnSHA256  = "warden_sha256"
	hostFnRequest = "warden_request"
	// hostFnTimers is called by the prelude when a timer would take the
	// pending timers over the timers limit: it ends the execution.
	hostFnTimers = "warden_timers"
)

// Answers of the log host function; the prelude stops calling it (and
// stops formatting arguments) once it answers logCutAnswer.
const (
	logKeptAnswer = ""
	logCutAnswer  = "cut"
)

// hostFunction is one host function the prelude is handed: its name,
// the number of string arguments it takes, and what serves it.
type hostFunction struct {
	name  string
	args  uint32
	serve func(x *execution, args []guestString) uint32
}

// hostFunctions are the host functions in the order the prelude's
// factory takes them (prelude.js: hostLog, hostSha256, hostRequest,
// hostTimers, hostRandom, hostDigest, hostHmacSign, hostHmacVerify,
// hostSource, hostIntl): newHostFunctions makes them, dispatch serves
// them.
var hostFunctions = []hostFunction{
	{hostFnLog, 2, func(x *execution, a []guestString) uint32 { return x.hostLog(a[0], a[1]) }},
	{hostFnSHA256, 1, func(x *execution, a []guestString) uint32 { return x.vm.hostSHA256(a[0]) }},
	{hostFnRequest, 2, func(x *execution, a []guestString) uint32 { return x.hostRequest(a[0], a[1]) }},
	{hostFnTimers, 1, func(x *execution, a []guestString) uint32 { return x.hostTimers(a[0]) }},
	{hostFnRandom, 1, func(x *execution, a []guestString) uint32 { return x.vm.hostRandom(a[0], x.det) }},
	{hostFnDigest, 2, func(x *execution, a []guestString) uint32 { return x.vm.hostDigest(a[0], a[1]) }},
	{hostFnHMACSign, 3, func(x *execution, a []guestString) uint32 {
		return x.vm.hostHMAC(a[0], a[1], a[2], guestString{}, false)
	}},
	{hostFnHMACVerify, 4, func(x *execution, a []guestString) uint32 { return x.vm.hostHMAC(a[0], a[1], a[2], a[3], true) }},
	{hostFnSource, 2, func(x *execution, a []guestString) uint32 { return x.hostSource(a[0], a[1]) }},
	{hostFnIntl, 3, func(x *execution, a []guestString) uint32 { return x.vm.hostIntl(a[0], a[1], a[2]) }},
}

// maxHostArgs is the most arguments a host function takes.
const maxHostArgs = 4

// dispatch serves the prelude's host functions. name and the arguments
// are where the trampoline says; every read is bounds-checked.
// hostCall has checked that the execution's code is running.
func (x *execution) dispatch(namePtr, nameLen, argc, argv uint32) uint32 {
	vm := x.vm
	mem := vm.mod.Memory()
	nameView, ok := mem.Read(namePtr, min(nameLen, 64))
	if !ok || nameLen > 64 {
		return vm.throwError("warden: bad host call")
	}
	var fn *hostFunction
	for i := range hostFunctions {
		if string(nameView) == hostFunctions[i].name {
			fn = &hostFunctions[i]
			break
		}
	}
	if fn == nil {
		return vm.throwError("warden: unknown host call")
	}
	if fn.name == hostFnLog && x.logsCut {
		// Nothing more is kept: do not even look at the arguments.
		return vm.returnString(logCutAnswer)
	}
	if argc != fn.args {
		return vm.throwError("warden: bad host call arguments")
	}
	var args [maxHostArgs]guestString
	for i := range argc {
		box, ok := mem.ReadUint32Le(argv + 4*i)
		if !ok {
			return vm.throwError("warden: bad host call arguments")
		}
		s, isStr, err := vm.stringAt(box)
		if err != nil {
			return 0 // the engine's out-of-memory exception is pending
		}
		if !isStr {
			return vm.throwError(fn.name + ": arguments must be strings")
		}
		defer vm.freeString(s)
		args[i] = s
	}
	return fn.serve(x, args[:argc])
}

// hostSource answers the prelude's request for one line of the code or
// a module (file, line), for the error stacks it rewrites; "0" when the
// arguments are not text.
func (x *execution) hostSource(file, line guestString) uint32 {
	fileText, err1 := x.vm.utf8String(file)
	lineText, err2 := x.vm.utf8String(line)
	if err1 != nil || err2 != nil {
		return x.vm.returnString("0")
	}
	return x.sourceAnswer(fileText, lineText)
}

// hostRequest queues a host.request and answers its sequence number (in
// decimal): the engine's loop calls the data handler when no job is
// left to run (serveRequest). Over the data limits the execution ends
// with a ResourceError: the count is checked before anything is read,
// the name and arguments before they are copied, the answer as soon as
// the handler returns it.
func (x *execution) hostRequest(name, args guestString) uint32 {
	vm := x.vm
	x.requests++
	if int64(x.requests) > x.limits.DataRequests {
		x.abort(contract.ResourceErrorf(contract.KindDataRequests,
			"more than %d host.request calls, over the data_requests limit", x.limits.DataRequests))
	}
	x.countData(int64(name.n) + int64(args.n))
	nameText, err := vm.utf8String(name)
	if err != nil {
		return vm.throwError("warden: bad host call arguments")
	}
	argsView, err := vm.view(args)
	if err != nil {
		return vm.throwError("warden: bad host call arguments")
	}
	// JSON, so lone surrogates (JSON.rawJSON) are escaped as the result's
	// are; what the escapes add is traffic too, counted before it is sent.
	argsText := string(wtf8ToJSON(argsView))
	x.countData(int64(len(argsText)) - int64(args.n))
	// The prelude stringified them: only nesting deeper than the host's
	// JSON takes makes them invalid, and the supervisor would take
	// sending them for a broken child.
	if argsText != "" && !validJSONDepth([]byte(argsText)) {
		return vm.throwError(fmt.Sprintf("host.request: arguments nested deeper than the %d levels the host takes", contract.MaxJSONDepth))
	}
	seq := int64(x.requests)
	x.queued = append(x.queued, contract.PendingRequest{Seq: seq, Name: nameText, Args: json.RawMessage(argsText)})
	return vm.returnString("", strconv.FormatInt(seq, 10))
}

// countData adds n bytes of host.request traffic, ending the execution
// when they take it over the data_bytes limit.
func (x *execution) countData(n int64) {
	if n > x.limits.DataBytes-x.dataBytes {
		x.abort(contract.ResourceErrorf(contract.KindDataBytes,
			"host.request traffic over the %d-byte data_bytes limit", x.limits.DataBytes))
	}
	x.dataBytes += n
}

// hostTimers is the prelude's report that a timer would take the pending
// timers to count, over the timers limit: the execution ends, as at
// every other limit, before the timer is set. A count within the limit
// is a prelude bug, refused rather than believed.
func (x *execution) hostTimers(count guestString) uint32 {
	text, err := x.vm.utf8String(count)
	if err != nil {
		return x.vm.throwError("warden: bad host call arguments")
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= x.limits.Timers {
		return x.vm.throwError("warden: bad timers report")
	}
	x.abort(contract.ResourceErrorf(contract.KindTimers,
		"more than %d timers pending at once, over the timers limit", x.limits.Timers))
	return 0
}

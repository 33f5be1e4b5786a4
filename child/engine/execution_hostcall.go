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
	var wantArgs uint32
	name := ""
	switch string(nameView) {
	case hostFnLog:
		if x.logsCut {
			// Nothing more is kept: do not even look at the arguments.
			return vm.returnString(logCutAnswer)
		}
		name, wantArgs = hostFnLog, 2
	case hostFnSHA256:
		name, wantArgs = hostFnSHA256, 1
	case hostFnRequest:
		name, wantArgs = hostFnRequest, 2
	case hostFnTimers:
		name, wantArgs = hostFnTimers, 1
	case hostFnRandom:
		name, wantArgs = hostFnRandom, 1
	case hostFnDigest:
		name, wantArgs = hostFnDigest, 2
	case hostFnHMACSign:
		name, wantArgs = hostFnHMACSign, 3
	case hostFnHMACVerify:
		name, wantArgs = hostFnHMACVerify, 4
	case hostFnSource:
		name, wantArgs = hostFnSource, 2
	default:
		return vm.throwError("warden: unknown host call")
	}
	if argc != wantArgs {
		return vm.throwError("warden: bad host call arguments")
	}
	var args [4]guestString
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
			return vm.throwError(name + ": arguments must be strings")
		}
		defer vm.freeString(s)
		args[i] = s
	}
	switch name {
	case hostFnLog:
		return x.hostLog(args[0], args[1])
	case hostFnSHA256:
		return vm.hostSHA256(args[0])
	case hostFnTimers:
		return x.hostTimers(args[0])
	case hostFnRandom:
		return vm.hostRandom(args[0])
	case hostFnDigest:
		return vm.hostDigest(args[0], args[1])
	case hostFnHMACSign, hostFnHMACVerify:
		return vm.hostHMAC(args[0], args[1], args[2], args[3], name == hostFnHMACVerify)
	case hostFnSource:
		file, err1 := vm.utf8String(args[0])
		line, err2 := vm.utf8String(args[1])
		if err1 != nil || err2 != nil {
			return vm.returnString("0")
		}
		return x.sourceAnswer(file, line)
	default:
		return x.hostRequest(args[0], args[1])
	}
}

// hostRequest answers host.request with "1" + JSON on success or "0" +
// message on failure (the prelude settles the promise with them). Over
// the data limits the execution ends with a ResourceError: the count is
// checked before anything is read, the name and arguments before they are
// copied, the answer as soon as the handler returns it.
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
	// The policy (no handler, null, JSON) is contract's, the same as
	// under the supervisor; the bounds on the traffic are enforced here.
	ans, err := contract.CallDataHandler(x.deadlineCtx, x.opts.Handler, nameText, json.RawMessage(argsText))
	if err != nil {
		msg := err.Error()
		x.countData(int64(len(msg)))
		return vm.returnString("0", msg)
	}
	x.countData(int64(len(ans)))
	box, err := vm.newStringBytes([]byte("1"), ans)
	if err != nil {
		return 0
	}
	return box
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

package ipc

// Every bound on the supervisor's connection to a child, derived from the
// limits it must carry: the largest message each side may send
// (WireCaps, from the caps, fixed when the child starts) and everything
// a child may send for one execution (WireBudget, from that request's
// limits). The message caps let through any one message the contract
// allows; what a child can make the supervisor hold is bounded by the
// budget, whatever the caps: gRPC buffers a message as its bytes arrive,
// and every byte counts against the budget first (wire.go).

import (
	"fmt"
	"math"

	"github.com/wardenhq/warden/contract"
)

// MaxWireMessageBytes is the largest message gRPC carries (its send and
// receive limits are ints, its default send limit math.MaxInt32). Caps
// that need a larger one are refused when the supervisor is configured
// (DeriveWireCaps), rather than failing one execution as a SandboxError.
const MaxWireMessageBytes = math.MaxInt32

// Per-message overheads: protobuf tags and lengths, and gRPC's 5-byte
// length prefix.
const (
	// eventOverheadBytes bounds the bytes one event (FromChild) or data
	// answer (ToChild) costs besides its payload and the execution id it
	// echoes: the oneof's tag and length, the seq, a log's level, the
	// data request's name and argument tags.
	eventOverheadBytes = 64
	// resultOverheadBytes bounds what a result carries besides its value
	// and logs: the error (its description within contract.MaxErrorBytes,
	// the engine's sentence around it, type and kind), the stats, and the
	// tags and lengths of each log entry, which the logs' JSON (what the
	// output limit counts) always outweighs.
	resultOverheadBytes = contract.MaxErrorBytes + 64<<10
	// requestOverheadBytes bounds a request besides its code, modules,
	// input and id: the limits (seven varints) and the fields' tags and
	// lengths.
	requestOverheadBytes = 1 << 10
	// moduleEntryOverheadBytes bounds one module's map entry besides its
	// name and source: the entry's tag and length, and the key's and
	// value's tags and lengths (each length a varint of at most 5 bytes).
	moduleEntryOverheadBytes = 18
	// minLogEntryBytes is the least a log entry counts against the log
	// limit: the engine counts level and text, and the shortest level
	// ("log") has three bytes.
	minLogEntryBytes = 3
	// frameBytes and frameHeaderBytes: HTTP/2 sends a message in DATA
	// frames of at most 16 KiB (gRPC's size), each behind a 9-byte header.
	frameBytes       = 16 << 10
	frameHeaderBytes = 9
)

// The bounds of one message below leave out the execution id, which
// DeriveWireCaps adds at its maximum and WireBudget at its length.

// WireCaps are the largest messages on a child's connection, one per
// direction. The supervisor derives them from its caps (DeriveWireCaps)
// and hands them to the child in its ChildConfig; both ends configure
// gRPC with them. Zero means MaxWireMessageBytes.
type WireCaps struct {
	// ToChild bounds the supervisor's messages: the request (code,
	// modules, input, limits, id) and each data answer.
	ToChild int `json:"to_child,omitempty"`
	// FromChild bounds the child's events: a result (value, logs, error,
	// stats), a log entry, a data request (name and arguments).
	FromChild int `json:"from_child,omitempty"`
}

// DeriveWireCaps returns the wire caps for requests within caps (resolved:
// every field positive) and inputs of at most maxInputBytes, or an error
// when a message the caps allow would be larger than gRPC carries.
func DeriveWireCaps(caps contract.Limits, maxInputBytes int64) (WireCaps, error) {
	to := max(requestBytes(caps, maxInputBytes), dataAnswerBytes(caps))
	to = max(to, resumeBytes(caps))
	from := satAdd(max(resultEventBytes(caps, true), logEventBytes(caps), dataRequestEventBytes(caps)), contract.MaxIDBytes)
	if to > MaxWireMessageBytes || from > MaxWireMessageBytes {
		return WireCaps{}, fmt.Errorf("ipc: the caps need wire messages of %d bytes to the child and %d from it, over the %d gRPC carries: lower the code, output or data_bytes caps or the input cap",
			to, from, MaxWireMessageBytes)
	}
	return WireCaps{ToChild: int(to), FromChild: int(from)}, nil
}

// orMax is a cap's value, MaxWireMessageBytes when it is zero.
func orMax(n int) int {
	if n <= 0 {
		return MaxWireMessageBytes
	}
	return n
}

// requestBytes bounds the request message: the supervisor refuses code
// (with modules) over CodeBytes, inputs over maxInputBytes and ids over
// contract.MaxIDBytes before sending, and every module costs at least a
// byte of CodeBytes but one (the empty name with an empty source).
func requestBytes(l contract.Limits, maxInputBytes int64) int64 {
	modules := satAdd(l.CodeBytes, 1)
	return satAdd(satAdd(requestOverheadBytes+contract.MaxIDBytes, l.CodeBytes),
		satAdd(satMul(modules, moduleEntryOverheadBytes), maxInputBytes))
}

// dataAnswerBytes bounds a data answer: its value or error fits in what
// is left of DataBytes, or it is not sent (Client.Execute's answer).
func dataAnswerBytes(l contract.Limits) int64 {
	return satAdd(eventOverheadBytes, l.DataBytes)
}

// resultEventBytes bounds a result: a value of at most OutputBytes, logs
// whose JSON is at most OutputBytes, and its error and stats.
func resultEventBytes(l contract.Limits, park bool) int64 {
	n := satAdd(satMul(l.OutputBytes, 2), resultOverheadBytes)
	if park {
		// A parked result carries no value but the state (ParkBytes),
		// the pending requests (their names and arguments counted in
		// DataBytes) and the logs so far.
		n = max(n, satAdd(satAdd(l.ParkBytes, l.DataBytes), satAdd(l.OutputBytes, resultOverheadBytes)))
	}
	return n
}

// resumeBytes bounds a resume message: the request without code or
// input, the state (ParkBytes) and answers within DataBytes, one
// overhead each at most DataRequests of them.
func resumeBytes(l contract.Limits) int64 {
	return satAdd(satAdd(requestOverheadBytes+contract.MaxIDBytes, l.ParkBytes),
		satAdd(l.DataBytes, satMul(l.DataRequests, eventOverheadBytes)))
}

// logEventBytes bounds a log event: one entry fits in the output limit.
func logEventBytes(l contract.Limits) int64 {
	return satAdd(l.OutputBytes, eventOverheadBytes)
}

// dataRequestEventBytes bounds a data request: its name and arguments
// count against DataBytes, in the engine's WTF-8 bytes, which converting
// to UTF-8 never lengthens.
func dataRequestEventBytes(l contract.Limits) int64 {
	return satAdd(l.DataBytes, eventOverheadBytes)
}

// eventBytes is the largest event of type t an honest child sends for
// req, whose limits are resolved: Client.Execute holds every event it
// receives to it, so that a child whose message fits the caps (WireCaps)
// still breaks the protocol when it sends more than its own request's
// limits allow.
func eventBytes(t contract.EventType, req contract.Request) int64 {
	l := req.Limits
	n := int64(eventOverheadBytes)
	switch t {
	case contract.EventResult:
		n = resultEventBytes(l, req.Park)
	case contract.EventLog:
		n = logEventBytes(l)
	case contract.EventDataRequest:
		n = dataRequestEventBytes(l)
	}
	return satAdd(n, int64(len(req.ID)))
}

// WireBudget is ProcessConfig.WireBudget's default: the most an honest
// child can send on its connection for req, whose limits are resolved. A
// result carries a value and the logs (up to OutputBytes each) and an
// error, the logs were streamed before it (again up to OutputBytes, in at
// most OutputBytes/3+1 events), data requests send their names and
// arguments (up to DataBytes in at most DataRequests events), every event
// echoes the execution id, and HTTP/2 frames it all.
func WireBudget(req contract.Request) int64 {
	l := req.Limits
	id := int64(len(req.ID))
	logEvents := satAdd(l.OutputBytes/minLogEntryBytes, 1)
	events := satAdd(2+l.DataRequests, logEvents) // started and result
	payload := satAdd(satAdd(resultEventBytes(l, req.Park), l.OutputBytes), l.DataBytes)
	framing := satMul(payload/frameBytes+1, frameHeaderBytes)
	return satAdd(satAdd(wireSlack, payload), satAdd(framing, satMul(events, eventOverheadBytes+id)))
}

// satAdd and satMul saturate at math.MaxInt64 instead of wrapping: a
// configured cap may be any int64, and an overflow must not turn a bound
// into a small or negative one. Their operands are never negative.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

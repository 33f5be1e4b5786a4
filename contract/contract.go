// Package contract holds the execution contract shared by every layer of
// Warden: the request a caller sends, the limits it runs under, the envelope
// it gets back, the typed errors and the events streamed while it runs.
//
// It imports only the standard library so that the engine, the wire code,
// the supervisor and the daemon can all speak it without depending on each
// other. The JSON shape of Result is the one `warden run` prints and the
// daemon returns; change it only on purpose.
package contract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrorType is the class of a failed execution. Callers branch on it.
type ErrorType string

// The error types of the contract. Every failed envelope carries one;
// the README's "The contract" says when each is given (it is the one
// definition; the names below only label them).
const (
	UserCodeError ErrorType = "UserCodeError"
	TimeoutError  ErrorType = "TimeoutError"
	ResourceError ErrorType = "ResourceError" // Error.Kind says which limit
	ContractError ErrorType = "ContractError"
	AbortError    ErrorType = "AbortError"
	CapacityError ErrorType = "CapacityError"
	SandboxError  ErrorType = "SandboxError"
)

// Known reports whether t is one of the contract's error types.
func (t ErrorType) Known() bool {
	switch t {
	case UserCodeError, TimeoutError, ResourceError, ContractError, AbortError, CapacityError, SandboxError:
		return true
	}
	return false
}

// Kinds refine ResourceError (and a few others) so callers can tell which
// limit was hit without parsing messages.
const (
	KindMemory  = "memory"
	KindStack   = "stack"
	KindOutput  = "output"
	KindCode    = "code"
	KindOOMKill = "oom_kill"
	// KindDataRequests and KindDataBytes: host.request calls over
	// Limits.DataRequests, or their traffic over Limits.DataBytes.
	KindDataRequests = "data_requests"
	KindDataBytes    = "data_bytes"
	// KindTimers: more timers pending at once than Limits.Timers.
	KindTimers = "timers"
)

// Error is the error half of an envelope. It implements error, and
// errors.Is(err, contract.ErrTimeout) (and the other sentinels) match on
// Type, so Go callers can branch without string compares.
type Error struct {
	Type ErrorType `json:"type"`
	// Kind refines Type: for ResourceError one of the Kind* constants.
	Kind string `json:"kind,omitempty"`
	// Name is the JavaScript error's name (TypeError, ...) when the error
	// came from a JS exception.
	Name    string `json:"name,omitempty"`
	Message string `json:"message"`
	// Stack is the JS stack trace, where there is one.
	Stack string `json:"stack,omitempty"`
}

func (e *Error) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%s (%s): %s", e.Type, e.Kind, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Type, e.Message)
}

// Is reports whether target is the sentinel for e's type, or an *Error
// with the same Type (and Kind, when target sets one).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.Type != e.Type {
		return false
	}
	return t.Kind == "" || t.Kind == e.Kind
}

// Sentinels for errors.Is.
var (
	ErrUserCode = &Error{Type: UserCodeError}
	ErrTimeout  = &Error{Type: TimeoutError}
	ErrResource = &Error{Type: ResourceError}
	ErrContract = &Error{Type: ContractError}
	ErrAbort    = &Error{Type: AbortError}
	ErrCapacity = &Error{Type: CapacityError}
	ErrSandbox  = &Error{Type: SandboxError}
)

// Errorf builds an *Error of the given type.
func Errorf(t ErrorType, format string, args ...any) *Error {
	return &Error{Type: t, Message: fmt.Sprintf(format, args...)}
}

// ResourceErrorf builds a ResourceError of the given kind.
func ResourceErrorf(kind, format string, args ...any) *Error {
	return &Error{Type: ResourceError, Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// AsError returns err as an *Error, wrapping anything else as SandboxError.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Type: SandboxError, Message: err.Error()}
}

// Request is one execution.
type Request struct {
	// ID identifies the execution in logs and events; the supervisor fills
	// one in when empty.
	ID string `json:"id,omitempty"`
	// Code is the body of an async function of one parameter, input.
	Code string `json:"code"`
	// Input is the JSON value bound to input. Empty means null.
	Input json.RawMessage `json:"input,omitempty"`
	// Limits requested; zero fields take the configured defaults, and no
	// field may exceed the configured hard cap (it is clamped).
	Limits Limits `json:"limits"`
	// Modules maps module specifiers to sources; code may import these and
	// nothing else. A module whose name ends in ".ts" is TypeScript.
	Modules map[string]string `json:"modules,omitempty"`
	// Language is Code's language: "" or LanguageJavaScript, or
	// LanguageTypeScript (types are stripped, never checked).
	Language string `json:"language,omitempty"`
	// Format is Code's form: FormatBody (the body of an async function of
	// input), FormatModule (an ES module whose default export is the
	// result, called with input when it is a function), or "" for the
	// body form unless the code does not compile as a body and does as a
	// module (which is so exactly when it has top-level import or export
	// declarations).
	Format string `json:"format,omitempty"`
	// Imports, when not nil, names the registered modules (the
	// supervisor's Config.Modules) the code may import; the daemon sets
	// it from the tenant's allow-list. Nil: every registered module.
	Imports []string `json:"imports,omitempty"`
	// Deterministic, when set, runs the code reproducibly: its entropy
	// comes from a PRNG seeded by Seed and its clocks from a virtual
	// clock that starts at Now and moves only with timers. Two runs of
	// the same request, given the same data answers, give the same
	// envelope but for its stats (README, "Deterministic runs").
	Deterministic *Deterministic `json:"deterministic,omitempty"`
	// Park allows the execution to park at a data request when the data
	// handler returns ErrPark (Result.Parked).
	Park bool `json:"park,omitempty"`
	// ParkScope binds a parked state: resuming it needs the same scope.
	// The daemon sets it to the tenant's name.
	ParkScope string `json:"park_scope,omitempty"`
}

// Deterministic is a request's deterministic mode.
type Deterministic struct {
	// Seed seeds every source of entropy the code can reach: at most
	// MaxSafeSeed, so that a JSON client in JavaScript reads it exactly.
	Seed uint64 `json:"seed"`
	// NowMS is where the virtual clock starts, as milliseconds since the
	// Unix epoch (what Date.now() returns first), within Date's range
	// and not before the epoch.
	NowMS int64 `json:"now_ms"`
}

// MaxSafeSeed is the largest Deterministic.Seed (JavaScript's
// Number.MAX_SAFE_INTEGER), and MaxNowMS the largest NowMS (the end of
// ECMAScript's time range, 8.64e15 ms).
const (
	MaxSafeSeed = 1<<53 - 1
	MaxNowMS    = 8_640_000_000_000_000
)

// The languages and formats of a Request.
const (
	LanguageJavaScript = "javascript"
	LanguageTypeScript = "typescript"
	FormatBody         = "body"
	FormatModule       = "module"
)

// IsTypeScript reports whether r's code is TypeScript.
func (r Request) IsTypeScript() bool { return r.Language == LanguageTypeScript }

// IsTypeScriptModule reports whether the module of that name is
// TypeScript: its name ends in ".ts".
func IsTypeScriptModule(name string) bool { return strings.HasSuffix(name, ".ts") }

// LogEntry is one captured console call.
type LogEntry struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

// Stats describe what one execution cost. Fields a layer cannot measure
// stay zero.
//
// Who measures what matters under the supervisor, where a child may be
// subverted: the fields marked "child-reported" come from the child with
// its result, and a child that runs code of its own choosing can send any
// value for them. Read them as the sandbox's account, never as a bound
// (nothing in Warden enforces a limit from them). The supervisor measures
// the fields marked so itself, from the kernel and its own clock. With the
// in-process engine every field is the engine's own measurement.
type Stats struct {
	// QueueWaitMS is how long the request waited for a child. Measured by
	// the supervisor.
	QueueWaitMS float64 `json:"queue_wait_ms"`
	// WallMS is the execution's wall time inside the sandbox.
	// Child-reported; when the child could not report (killed at its
	// deadline, or dead), the supervisor's measure from sending the
	// request to the kill.
	WallMS float64 `json:"wall_ms"`
	// CPUMS is the CPU time of the thread that ran the guest, where the
	// platform reports it. Child-reported.
	CPUMS float64 `json:"cpu_ms"`
	// HeapBytes is what QuickJS had allocated when the execution ended.
	// Child-reported.
	HeapBytes int64 `json:"heap_bytes"`
	// PeakMemoryBytes is the size the wasm linear memory reached.
	// Child-reported.
	PeakMemoryBytes int64 `json:"peak_memory_bytes"`
	// PeakStackBytes is the deepest the wasm shadow stack went.
	// Child-reported.
	PeakStackBytes int64 `json:"peak_stack_bytes"`
	// DataRequests is the number of host.request calls the guest made.
	// Child-reported (each call still reaches the caller's DataHandler
	// through the supervisor, which is where a trusted count can be kept).
	DataRequests int `json:"data_requests"`
	// LogBytes is what the captured logs take as JSON: each entry's
	// encoding plus a separator (at most the output limit). Child-reported;
	// the logs themselves are bounded on the wire, whatever this says.
	LogBytes int64 `json:"log_bytes"`
	// ChildPID is the child's process ID. Set by the supervisor.
	ChildPID int `json:"child_pid,omitempty"`
	// ChildCPUMS and ChildMaxRSSBytes are the child process's CPU time and
	// peak RSS: child-reported (its own getrusage) by default; measured by
	// the supervisor (the kernel's rusage of the reaped child) with
	// supervisor.Config.ReapedUsage, or when the child sent no result.
	ChildCPUMS       float64 `json:"child_cpu_ms,omitempty"`
	ChildMaxRSSBytes int64   `json:"child_max_rss_bytes,omitempty"`
	// CgroupPeakBytes is the peak memory of the child's cgroup. Measured
	// by the supervisor (read from the kernel).
	CgroupPeakBytes int64 `json:"cgroup_peak_bytes,omitempty"`
}

// Millis expresses d in the milliseconds Stats uses, to the microsecond.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Result is the envelope: ok with a value, or an error; always logs,
// stats and the limits that were in force.
type Result struct {
	OK bool `json:"ok"`
	// Value is the JSON text the code's result stringified to.
	Value  json.RawMessage `json:"value,omitempty"`
	Error  *Error          `json:"error,omitempty"`
	Logs   []LogEntry      `json:"logs"`
	Stats  Stats           `json:"stats"`
	Limits Limits          `json:"limits"`
	// Clamped names the requested limits that were lowered to their cap.
	Clamped []string `json:"clamped,omitempty"`
	// Parked, when set, says the execution parked at a data request
	// (ErrPark): OK is false and Error nil, Logs are the logs so far,
	// and Resume continues it from Parked.State.
	Parked *Parked `json:"parked,omitempty"`
}

// Err returns the envelope's error as a Go error, or nil when it is ok.
func (r *Result) Err() error {
	if r.OK || r.Error == nil {
		return nil
	}
	return r.Error
}

// Fail builds a failed envelope around err.
func Fail(err error, limits Limits) Result {
	return Result{Error: AsError(err), Logs: []LogEntry{}, Limits: limits}
}

// DataHandler answers host.request(name, args) calls made by guest code.
// args is the JSON the guest passed (null when it passed nothing); the
// answer must be JSON. An error rejects the guest's promise with the
// error's message. It is called synchronously while the guest waits, and
// ctx ends at the execution's deadline.
type DataHandler func(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error)

package contract

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/wardenhq/warden/internal/strictjson"
)

// Limits bound one execution. In a Request a zero field means "the
// default"; in a Result every field is the value that was in force.
type Limits struct {
	// Timeout is the wall-clock deadline of the execution.
	Timeout time.Duration
	// MemoryBytes caps the QuickJS heap; the wasm linear memory and the
	// child's cgroup are capped a little above it.
	MemoryBytes int64
	// StackBytes is QuickJS's maximum stack size.
	StackBytes int64
	// OutputBytes caps the result JSON, and separately the captured logs.
	OutputBytes int64
	// CodeBytes caps the source size (code plus modules).
	CodeBytes int64
	// DataRequests caps the number of host.request calls one execution
	// may make.
	DataRequests int64
	// DataBytes caps the bytes of host.request traffic one execution may
	// cause, both ways: request names and arguments sent plus answers
	// received.
	DataBytes int64
	// Timers caps the timers (setTimeout, setInterval) pending at once.
	Timers int64
	// ParkBytes caps a parked execution's state (Result.Parked): past
	// it parking fails and the execution waits for its answer as one
	// that may not park does.
	ParkBytes int64
}

// DefaultLimits are what an execution gets when it asks for nothing.
var DefaultLimits = Limits{
	Timeout:      1000 * time.Millisecond,
	MemoryBytes:  16 << 20,
	StackBytes:   512 << 10,
	OutputBytes:  1 << 20,
	CodeBytes:    256 << 10,
	DataRequests: 1000,
	DataBytes:    16 << 20,
	Timers:       1000,
	ParkBytes:    16 << 20,
}

// DefaultCaps are the hard caps a request may raise its limits to.
var DefaultCaps = Limits{
	Timeout:     30 * time.Second,
	MemoryBytes: 256 << 20,
	// The QuickJS wasm build has a 1 MiB shadow stack; past half of it
	// QuickJS cannot unwind a stack overflow cleanly (docs/quickjs-wasm.md).
	StackBytes:   512 << 10,
	OutputBytes:  16 << 20,
	CodeBytes:    1 << 20,
	DataRequests: 100_000,
	DataBytes:    256 << 20,
	Timers:       10_000,
	ParkBytes:    256 << 20,
}

// MinMemoryBytes is the smallest memory limit QuickJS can initialise under.
const MinMemoryBytes = 1 << 20

// MaxStackBytes is the largest stack limit this wasm build supports.
const MaxStackBytes = 512 << 10

// Limits's JSON is a limitsJSON: a strict decode of a body holding
// limits checks them in place (names, nulls, integers).
func init() { strictjson.Wire[Limits, limitsJSON]() }

type limitsJSON struct {
	TimeoutMS    int64 `json:"timeout_ms"`
	MemoryBytes  int64 `json:"memory_bytes"`
	StackBytes   int64 `json:"stack_bytes"`
	OutputBytes  int64 `json:"output_bytes"`
	CodeBytes    int64 `json:"code_bytes"`
	DataRequests int64 `json:"data_requests"`
	DataBytes    int64 `json:"data_bytes"`
	Timers       int64 `json:"timers"`
	ParkBytes    int64 `json:"park_bytes"`
}

// MarshalJSON writes the timeout in milliseconds.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(limitsJSON{
		TimeoutMS:    l.Timeout.Milliseconds(),
		MemoryBytes:  l.MemoryBytes,
		StackBytes:   l.StackBytes,
		OutputBytes:  l.OutputBytes,
		CodeBytes:    l.CodeBytes,
		DataRequests: l.DataRequests,
		DataBytes:    l.DataBytes,
		Timers:       l.Timers,
		ParkBytes:    l.ParkBytes,
	})
}

// UnmarshalJSON reads the form MarshalJSON writes, strictly: a name that
// is not exactly one of the limits' (a misspelt or case-folded one), a
// name given twice, null or a value that is not an int64 integer is a
// ContractError rather than ignored or taken for absent.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var j limitsJSON
	if err := strictjson.Unmarshal(b, &j); err != nil {
		return Errorf(ContractError, "limits: %v", err)
	}
	*l = Limits{
		Timeout:      millisToDuration(j.TimeoutMS),
		MemoryBytes:  j.MemoryBytes,
		StackBytes:   j.StackBytes,
		OutputBytes:  j.OutputBytes,
		CodeBytes:    j.CodeBytes,
		DataRequests: j.DataRequests,
		DataBytes:    j.DataBytes,
		Timers:       j.Timers,
		ParkBytes:    j.ParkBytes,
	}
	return nil
}

// millisToDuration converts without wrapping: milliseconds past what a
// Duration holds saturate (and are clamped to the cap, or refused as
// negative, by Resolve) instead of overflowing into an arbitrary value.
func millisToDuration(ms int64) time.Duration {
	const most = math.MaxInt64 / int64(time.Millisecond)
	switch {
	case ms > most:
		return math.MaxInt64
	case ms < -most:
		return math.MinInt64
	}
	return time.Duration(ms) * time.Millisecond
}

// limitField is one field of a Limits, under its JSON name.
type limitField struct {
	name string
	v    *int64
}

func (f limitField) format(v int64) string {
	if f.name == "timeout_ms" {
		return time.Duration(v).String()
	}
	return fmt.Sprint(v)
}

// fields lists l's fields in declaration order, each as an *int64 into l
// (Timeout's underlying type is int64): the one list of them that
// Resolve, CheckResolved, WithDefaults and CheckCaps walk.
func (l *Limits) fields() []limitField {
	return []limitField{
		{"timeout_ms", (*int64)(&l.Timeout)},
		{"memory_bytes", &l.MemoryBytes},
		{"stack_bytes", &l.StackBytes},
		{"output_bytes", &l.OutputBytes},
		{"code_bytes", &l.CodeBytes},
		{"data_requests", &l.DataRequests},
		{"data_bytes", &l.DataBytes},
		{"timers", &l.Timers},
		{"park_bytes", &l.ParkBytes},
	}
}

// Resolve applies defaults and caps to requested limits. Zero fields take
// the default, fields above the cap are clamped (and named in clamped),
// negative fields are a ContractError.
func Resolve(requested, defaults, caps Limits) (in Limits, clamped []string, err error) {
	df, cf, out := defaults.fields(), caps.fields(), in.fields()
	for i, f := range requested.fields() {
		v := *f.v
		switch {
		case v < 0:
			return Limits{}, nil, Errorf(ContractError, "limit %s is negative", f.name)
		case v == 0:
			v = *df[i].v
		}
		if c := *cf[i].v; c > 0 && v > c {
			v = c
			clamped = append(clamped, f.name)
		}
		*out[i].v = v
	}
	if in.MemoryBytes < MinMemoryBytes {
		return Limits{}, nil, Errorf(ContractError, "limit memory_bytes %d is below the minimum %d", in.MemoryBytes, MinMemoryBytes)
	}
	if in.StackBytes > MaxStackBytes {
		in.StackBytes = MaxStackBytes
		clamped = append(clamped, "stack_bytes")
	}
	if in.Timeout < time.Millisecond {
		return Limits{}, nil, Errorf(ContractError, "limit timeout_ms must be at least 1")
	}
	return in, clamped, nil
}

// CheckResolved reports whether l is what Resolve returns: every field
// positive, the memory limit at least MinMemoryBytes, the stack limit at
// most MaxStackBytes, the timeout at least a millisecond. Whoever
// receives limits already resolved (a child, from its supervisor)
// checks them with it and refuses, as a ContractError, anything else
// rather than fill in defaults of its own.
func (l Limits) CheckResolved() error {
	for _, f := range l.fields() {
		if *f.v <= 0 {
			return Errorf(ContractError, "limits are not resolved: %s is %d", f.name, *f.v)
		}
	}
	switch {
	case l.Timeout < time.Millisecond:
		return Errorf(ContractError, "limits are not resolved: timeout %v is under a millisecond", l.Timeout)
	case l.MemoryBytes < MinMemoryBytes:
		return Errorf(ContractError, "limits are not resolved: memory_bytes %d is below the minimum %d", l.MemoryBytes, MinMemoryBytes)
	case l.StackBytes > MaxStackBytes:
		return Errorf(ContractError, "limits are not resolved: stack_bytes %d is over the maximum %d", l.StackBytes, MaxStackBytes)
	}
	return nil
}

// LinearMemoryCap is the most wasm linear memory an instance running
// under a QuickJS heap limit of memoryBytes may grow to: the 1 MiB
// shadow stack and static data below the heap, the heap itself, and a
// quarter more as headroom, so that QuickJS's own limit (a clean,
// uncatchable out-of-memory) trips before malloc fails on the page cap.
// The engine's page cap, the supervisor's cgroup cap (this plus the
// runtime overhead) and warden doctor all derive from it. It saturates
// at math.MaxInt64 instead of overflowing.
func LinearMemoryCap(memoryBytes int64) int64 {
	const below = 4 << 20
	if memoryBytes > (math.MaxInt64-below)/5*4 {
		return math.MaxInt64
	}
	return memoryBytes + memoryBytes/4 + below
}

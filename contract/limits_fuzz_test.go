package contract

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// checkResolved fails unless in is what Resolve may hand a child: every
// field positive and within caps (a zero cap means none), the memory at
// least MinMemoryBytes, the stack at most MaxStackBytes, the timeout at
// least 1 ms; or, when Resolve refused, a ContractError.
func checkResolved(t *testing.T, req Limits, in Limits, err error) {
	t.Helper()
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Type != ContractError {
			t.Fatalf("Resolve(%+v): error %v is not a ContractError", req, err)
		}
		return
	}
	fields := []struct {
		name    string
		v, capv int64
	}{
		{"timeout", int64(in.Timeout), int64(DefaultCaps.Timeout)},
		{"memory_bytes", in.MemoryBytes, DefaultCaps.MemoryBytes},
		{"stack_bytes", in.StackBytes, DefaultCaps.StackBytes},
		{"output_bytes", in.OutputBytes, DefaultCaps.OutputBytes},
		{"code_bytes", in.CodeBytes, DefaultCaps.CodeBytes},
		{"data_requests", in.DataRequests, DefaultCaps.DataRequests},
		{"data_bytes", in.DataBytes, DefaultCaps.DataBytes},
		{"timers", in.Timers, DefaultCaps.Timers},
	}
	for _, f := range fields {
		if f.v <= 0 || f.v > f.capv {
			t.Fatalf("Resolve(%+v): %s = %d, want within (0, %d]", req, f.name, f.v, f.capv)
		}
	}
	if in.Timeout < time.Millisecond || in.MemoryBytes < MinMemoryBytes || in.StackBytes > MaxStackBytes {
		t.Fatalf("Resolve(%+v) = %+v: under a minimum or over a maximum", req, in)
	}
}

// FuzzLimitsJSON: whatever JSON a caller sends as limits, UnmarshalJSON
// and Resolve never panic, and what they let through is within the caps.
func FuzzLimitsJSON(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"timeout_ms":100,"memory_bytes":33554432}`,
		`{"timeout_ms":-1}`,
		`{"timeout_ms":9223372036854775807}`,
		`{"timeout_ms":9223372036855}`,
		`{"timeout_ms":18446744073714}`, // wrapped to 4.4 ms before millisToDuration
		`{"memory_bytes":1e30}`,
		`{"data_requests":100001,"data_bytes":1}`,
		`{"timers":10001}`,
		`{"timers":-1}`,
		`{"stack_bytes":99999999999,"output_bytes":0,"code_bytes":-5}`,
		`{"nope":1}`,
		`[1,2]`,
		`null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var l Limits
		if err := json.Unmarshal(b, &l); err != nil {
			return
		}
		in, _, err := Resolve(l, DefaultLimits, DefaultCaps)
		checkResolved(t, l, in, err)
		// A timeout over the cap is clamped to it, however far over.
		var j limitsJSON
		if json.Unmarshal(b, &j) == nil && j.TimeoutMS > DefaultCaps.Timeout.Milliseconds() && j.MemoryBytes >= 0 &&
			j.StackBytes >= 0 && j.OutputBytes >= 0 && j.CodeBytes >= 0 && j.DataRequests >= 0 && j.DataBytes >= 0 && j.Timers >= 0 &&
			(j.MemoryBytes == 0 || j.MemoryBytes >= MinMemoryBytes) {
			if err != nil || in.Timeout != DefaultCaps.Timeout {
				t.Fatalf("timeout_ms %d resolved to %v, %v; want the cap %v", j.TimeoutMS, in.Timeout, err, DefaultCaps.Timeout)
			}
		}
		// A resolved value survives its own JSON unchanged (it is what the
		// envelope reports).
		if err == nil {
			out, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			var back Limits
			if err := json.Unmarshal(out, &back); err != nil || back != in {
				t.Fatalf("round trip of %+v: %+v, %v", in, back, err)
			}
		}
	})
}

// FuzzResolve: any Go values (the embedding API) resolve within the caps
// or to a ContractError.
func FuzzResolve(f *testing.F) {
	f.Add(int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0))
	f.Add(int64(time.Microsecond), int64(1<<40), int64(1), int64(-1), int64(1<<62), int64(1<<62), int64(1), int64(1<<40))
	f.Add(int64(1<<62), int64(MinMemoryBytes-1), int64(MaxStackBytes+1), int64(1), int64(1), int64(0), int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, timeout, mem, stack, out, code, dreq, dbytes, timers int64) {
		req := Limits{Timeout: time.Duration(timeout), MemoryBytes: mem, StackBytes: stack, OutputBytes: out,
			CodeBytes: code, DataRequests: dreq, DataBytes: dbytes, Timers: timers}
		in, _, err := Resolve(req, DefaultLimits, DefaultCaps)
		checkResolved(t, req, in, err)
	})
}

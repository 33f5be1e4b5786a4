package contract

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	caps := Limits{Timeout: 10 * time.Second, MemoryBytes: 64 << 20, StackBytes: 512 << 10, OutputBytes: 4 << 20, CodeBytes: 1 << 20, DataRequests: 100_000, DataBytes: 256 << 20, Timers: 10_000}
	tests := []struct {
		name    string
		req     Limits
		want    Limits
		clamped []string
		err     bool
	}{
		{"zero takes defaults", Limits{}, DefaultLimits, nil, false},
		{"lower is kept", Limits{Timeout: time.Millisecond, MemoryBytes: 2 << 20}, Limits{Timeout: time.Millisecond, MemoryBytes: 2 << 20, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 16 << 20, Timers: 1000, ParkBytes: 16 << 20}, nil, false},
		{"over the cap is clamped", Limits{Timeout: time.Hour, OutputBytes: 1 << 30}, Limits{Timeout: 10 * time.Second, MemoryBytes: 16 << 20, StackBytes: 512 << 10, OutputBytes: 4 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 16 << 20, Timers: 1000, ParkBytes: 16 << 20}, []string{"timeout_ms", "output_bytes"}, false},
		{"negative", Limits{CodeBytes: -1}, Limits{}, nil, true},
		{"data limits clamped", Limits{DataRequests: 1 << 40, DataBytes: 1 << 40}, Limits{Timeout: time.Second, MemoryBytes: 16 << 20, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 100_000, DataBytes: 256 << 20, Timers: 1000, ParkBytes: 16 << 20}, []string{"data_requests", "data_bytes"}, false},
		{"timers clamped", Limits{Timers: 20_000}, Limits{Timeout: time.Second, MemoryBytes: 16 << 20, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 16 << 20, Timers: 10_000, ParkBytes: 16 << 20}, []string{"timers"}, false},
		{"timers raised", Limits{Timers: 5000}, Limits{Timeout: time.Second, MemoryBytes: 16 << 20, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 16 << 20, Timers: 5000, ParkBytes: 16 << 20}, nil, false},
		{"negative timers", Limits{Timers: -1}, Limits{}, nil, true},
		{"memory below the minimum", Limits{MemoryBytes: 1000}, Limits{}, nil, true},
		{"sub-millisecond timeout", Limits{Timeout: time.Microsecond}, Limits{}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, clamped, err := Resolve(tt.req, DefaultLimits, caps)
			if (err != nil) != tt.err {
				t.Fatalf("err %v, want error %v", err, tt.err)
			}
			if err != nil {
				if !errors.Is(err, ErrContract) {
					t.Fatalf("want a ContractError, got %v", err)
				}
				return
			}
			if got != tt.want || !slices.Equal(clamped, tt.clamped) {
				t.Fatalf("got %+v %v, want %+v %v", got, clamped, tt.want, tt.clamped)
			}
		})
	}
}

func TestLimitsJSON(t *testing.T) {
	b, err := json.Marshal(DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"timeout_ms":1000,"memory_bytes":16777216,"stack_bytes":524288,"output_bytes":1048576,"code_bytes":262144,"data_requests":1000,"data_bytes":16777216,"timers":1000,"park_bytes":16777216}` {
		t.Fatalf("unexpected JSON %s", b)
	}
	var back Limits
	if err := json.Unmarshal(b, &back); err != nil || back != DefaultLimits {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	// A misspelt limit is a ContractError, not silently ignored.
	err = json.Unmarshal([]byte(`{"timeout":5}`), &back)
	if !errors.Is(err, ErrContract) {
		t.Fatalf("want ContractError for an unknown limit, got %v", err)
	}
}

// TestLimitsJSONStrict: names match exactly (encoding/json would fold
// "Timeout_MS" and "timeout_m\u017f"-like spellings onto timeout_ms), a
// name given twice, null, a fraction and invalid UTF-8 are each a
// ContractError naming the problem, however the Limits is reached.
func TestLimitsJSONStrict(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"Timeout_MS":5}`, `unknown field "Timeout_MS"`},
		{`{"TIMEOUT_MS":5}`, `unknown field "TIMEOUT_MS"`},
		{`{"data_byte\u017f":5}`, `unknown field "data_byteſ"`},
		{`{"timeout_ms":5,"timeout_ms":50000}`, `duplicate member name "timeout_ms"`},
		{`null`, `null is not allowed here, want an object`},
		{`{"timeout_ms":null}`, `/timeout_ms: null is not allowed here, want an integer`},
		{`{"timeout_ms":1.5}`, `1.5 is not an integer`},
		{`{"memory_bytes":9223372036854775808}`, `is not an integer`},
		{"{\"timeout_ms\":5,\"\xff\":1}", `invalid UTF-8`},
		{`{"Timers":5}`, `unknown field "Timers"`},
		{`{"timer":5}`, `unknown field "timer"`},
		{`{"timers":null}`, `/timers: null is not allowed here, want an integer`},
		{`{"timers":2.5}`, `2.5 is not an integer`},
		{`{"timers":"5"}`, `want an integer`},
		{`{"timers":5,"timers":6}`, `duplicate member name "timers"`},
	} {
		var l Limits
		err := json.Unmarshal([]byte(tc.in), &l)
		if !errors.Is(err, ErrContract) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a ContractError saying %q", tc.in, err, tc.want)
		}
		var req Request
		if err := json.Unmarshal([]byte(`{"code":"","limits":`+tc.in+`}`), &req); !errors.Is(err, ErrContract) {
			t.Errorf("%s in a Request: got %v, want a ContractError", tc.in, err)
		}
	}
}

func TestErrorIs(t *testing.T) {
	e := ResourceErrorf(KindOOMKill, "killed")
	if !errors.Is(e, ErrResource) || errors.Is(e, ErrTimeout) {
		t.Fatal("Is must match on type")
	}
	if !errors.Is(e, &Error{Type: ResourceError, Kind: KindOOMKill}) || errors.Is(e, &Error{Type: ResourceError, Kind: KindMemory}) {
		t.Fatal("Is must match on kind when the target sets one")
	}
	if AsError(errors.New("x")).Type != SandboxError {
		t.Fatal("a plain error is a SandboxError")
	}
	var r Result
	r.Error = e
	if r.Err() == nil {
		t.Fatal("a failed envelope has an error")
	}
}

// The linear-memory cap is written once: the engine's page cap, the
// supervisor's cgroup cap and warden doctor all derive from it.
func TestLinearMemoryCap(t *testing.T) {
	const mib = 1 << 20
	tests := []struct{ memory, want int64 }{
		{MinMemoryBytes, mib + mib/4 + 4*mib},
		{16 * mib, 24 * mib},
		{256 * mib, 324 * mib},
		{3, 3 + 4*mib}, // 3/4 rounds down
		{math.MaxInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := LinearMemoryCap(tt.memory); got != tt.want {
			t.Errorf("LinearMemoryCap(%d) = %d, want %d", tt.memory, got, tt.want)
		}
	}
}

// A child receives resolved limits and must refuse anything else rather
// than fill in defaults of its own.
func TestCheckResolved(t *testing.T) {
	ok := DefaultLimits
	if err := ok.CheckResolved(); err != nil {
		t.Fatalf("default limits refused: %v", err)
	}
	bad := map[string]func(*Limits){
		"zero":              func(l *Limits) { *l = Limits{} },
		"zero timeout":      func(l *Limits) { l.Timeout = 0 },
		"negative memory":   func(l *Limits) { l.MemoryBytes = -1 },
		"memory below min":  func(l *Limits) { l.MemoryBytes = MinMemoryBytes - 1 },
		"stack over max":    func(l *Limits) { l.StackBytes = MaxStackBytes + 1 },
		"zero output":       func(l *Limits) { l.OutputBytes = 0 },
		"zero code":         func(l *Limits) { l.CodeBytes = 0 },
		"negative requests": func(l *Limits) { l.DataRequests = -5 },
		"zero data bytes":   func(l *Limits) { l.DataBytes = 0 },
		"zero timers":       func(l *Limits) { l.Timers = 0 },
	}
	for name, mod := range bad {
		l := DefaultLimits
		mod(&l)
		if err := l.CheckResolved(); !errors.Is(err, ErrContract) {
			t.Errorf("%s: got %v, want a ContractError", name, err)
		}
	}
}

func TestCallDataHandler(t *testing.T) {
	ctx := context.Background()
	echo := func(_ context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		switch name {
		case "nil":
			return nil, nil
		case "bad":
			return json.RawMessage("{"), nil
		case "wtf8":
			return json.RawMessage("\"\xed\xa0\x80\""), nil
		case "err":
			return nil, errors.New("refused")
		}
		return args, nil
	}
	tests := []struct {
		name    string
		h       DataHandler
		args    string
		want    string
		wantErr string
	}{
		{"echo", echo, `[1]`, `[1]`, ""},
		{"echo", echo, ``, `null`, ""},
		{"nil", echo, `1`, `null`, ""},
		{"bad", echo, `1`, ``, `host.request "bad": the data handler answered with invalid JSON`},
		{"wtf8", echo, `1`, ``, `host.request "wtf8": the data handler answered with JSON that is not valid UTF-8`},
		{"err", echo, `1`, ``, `refused`},
		{"x", nil, `1`, ``, ErrNoDataHandler.Error()},
	}
	for _, tt := range tests {
		got, err := CallDataHandler(ctx, tt.h, tt.name, json.RawMessage(tt.args))
		if string(got) != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && err.Error() != tt.wantErr {
			t.Errorf("%s(%s): got %s, %v; want %s, %s", tt.name, tt.args, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestRequestCheck(t *testing.T) {
	for _, name := range []string{"m", "./lib/x.js", "é", "中文", "@scope/pkg", "a b"} {
		if err := CheckModuleName(name); err != nil {
			t.Errorf("CheckModuleName(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range []string{"", "m\x00", "m\x00x", "\x00", "a\tb", "a\nb", "a\x7f", "a\u0085", "a\u009f", "\xff", "\xed\xa0\x80"} {
		err := CheckModuleName(name)
		if !errors.Is(err, ErrContract) {
			t.Errorf("CheckModuleName(%q) = %v, want a ContractError", name, err)
		}
		if err := (Request{Code: "return 1", Modules: map[string]string{name: ""}}).Check(); !errors.Is(err, ErrContract) {
			t.Errorf("Check with module %q = %v, want a ContractError", name, err)
		}
	}
	for _, r := range []Request{
		{Code: "\xff"},
		{Code: "1", Modules: map[string]string{"m": "\xed\xa0\x80"}},
		{Code: "1", Input: json.RawMessage("\"\xed\xa0\x80\"")},
		{Code: "1", Input: json.RawMessage("{")},
	} {
		if err := r.Check(); !errors.Is(err, ErrContract) {
			t.Errorf("%+v.Check() = %v, want a ContractError", r, err)
		}
	}
	if err := (Request{Code: "return input", Input: json.RawMessage(`"\ud800"`), Modules: map[string]string{"m": "export default 1"}}).Check(); err != nil {
		t.Errorf("a well-formed request: %v", err)
	}
	if WhyNotJSON([]byte("\"\xff\"")) == WhyNotJSON([]byte("{")) {
		t.Errorf("WhyNotJSON does not tell invalid UTF-8 from invalid JSON")
	}
}

// TestTimersLimitJSON: the timers limit travels as "timers", is kept
// when set, takes its default when absent, and is clamped to its cap.
func TestTimersLimitJSON(t *testing.T) {
	var l Limits
	if err := json.Unmarshal([]byte(`{"timers":2500}`), &l); err != nil || l != (Limits{Timers: 2500}) {
		t.Fatalf("got %+v, %v", l, err)
	}
	in, clamped, err := Resolve(Limits{}, DefaultLimits, DefaultCaps)
	if err != nil || in.Timers != 1000 || clamped != nil {
		t.Fatalf("default: %+v %v %v", in, clamped, err)
	}
	in, clamped, err = Resolve(Limits{Timers: 1 << 40}, DefaultLimits, DefaultCaps)
	if err != nil || in.Timers != 10_000 || !slices.Equal(clamped, []string{"timers"}) {
		t.Fatalf("over the cap: %+v %v %v", in, clamped, err)
	}
	b, err := json.Marshal(in)
	if err != nil || !strings.Contains(string(b), `"timers":10000`) {
		t.Fatalf("marshal: %s %v", b, err)
	}
}

package contract

import (
	"strings"
	"testing"
	"time"
)

func TestWithDefaults(t *testing.T) {
	tests := []struct {
		name string
		l, d Limits
		want Limits
	}{
		{"zero takes every default", Limits{}, DefaultCaps, DefaultCaps},
		{"one field set keeps the others", Limits{Timeout: 5 * time.Second}, DefaultCaps,
			Limits{Timeout: 5 * time.Second, MemoryBytes: 256 << 20, StackBytes: 512 << 10, OutputBytes: 16 << 20, CodeBytes: 1 << 20, DataRequests: 100_000, DataBytes: 256 << 20, Timers: 10_000, ParkBytes: 256 << 20}},
		{"every field set is kept", DefaultLimits, DefaultCaps, DefaultLimits},
		{"last field alone", Limits{DataBytes: 7}, DefaultLimits,
			Limits{Timeout: time.Second, MemoryBytes: 16 << 20, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 7, Timers: 1000, ParkBytes: 16 << 20}},
		{"negative is kept, for Resolve to refuse", Limits{MemoryBytes: -1}, DefaultLimits,
			Limits{Timeout: time.Second, MemoryBytes: -1, StackBytes: 512 << 10, OutputBytes: 1 << 20, CodeBytes: 256 << 10, DataRequests: 1000, DataBytes: 16 << 20, Timers: 1000, ParkBytes: 16 << 20}},
		{"zero defaults leave zero", Limits{CodeBytes: 3}, Limits{}, Limits{CodeBytes: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.l.WithDefaults(tt.d); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
	// The receiver is a copy: the caller's value is unchanged.
	l := Limits{Timeout: time.Second}
	l.WithDefaults(DefaultCaps)
	if l != (Limits{Timeout: time.Second}) {
		t.Errorf("WithDefaults changed its receiver: %+v", l)
	}
}

func TestCheckCaps(t *testing.T) {
	tests := []struct {
		name           string
		defaults, caps Limits
		want           []string // substrings of the error; nil: no error
	}{
		{"the contract's own", DefaultLimits, DefaultCaps, nil},
		{"zero fields are not checked", Limits{}, Limits{MemoryBytes: 2 << 20}, nil},
		{"equal to the cap", Limits{Timeout: time.Second}, Limits{Timeout: time.Second}, nil},
		{"above the cap", Limits{Timeout: 2 * time.Second, MemoryBytes: 64 << 20, OutputBytes: 1}, Limits{Timeout: time.Second, MemoryBytes: 32 << 20, OutputBytes: 1},
			[]string{"default timeout_ms 2s is above its cap 1s", "default memory_bytes 67108864 is above its cap 33554432"}},
		{"zero cap: not checked", Limits{DataBytes: 1 << 40}, Limits{}, nil},
		{"negative cap", Limits{}, Limits{CodeBytes: -1}, []string{"cap code_bytes is negative"}},
		{"negative default", Limits{StackBytes: -1}, DefaultCaps, []string{"default stack_bytes is negative"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckCaps(tt.defaults, tt.caps)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestConfigLimits(t *testing.T) {
	tests := []struct {
		name             string
		defaults, caps   Limits
		wantDef, wantCap Limits
		err              bool
	}{
		{"zero takes the contract's", Limits{}, Limits{}, DefaultLimits, DefaultCaps, false},
		{"a partial cap keeps the other caps", Limits{}, Limits{Timeout: 5 * time.Second},
			DefaultLimits, DefaultCaps.withTimeout(5 * time.Second), false},
		{"an unset default is lowered to its cap", Limits{}, Limits{MemoryBytes: 8 << 20},
			DefaultLimits.withMemory(8 << 20), DefaultCaps.withMemory(8 << 20), false},
		{"a partial default keeps the other defaults", Limits{OutputBytes: 2 << 20}, Limits{},
			DefaultLimits.withOutput(2 << 20), DefaultCaps, false},
		{"a default set above its cap", Limits{MemoryBytes: 64 << 20}, Limits{MemoryBytes: 32 << 20}, Limits{}, Limits{}, true},
		{"a negative cap", Limits{}, Limits{DataBytes: -1}, Limits{}, Limits{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def, caps, err := ConfigLimits(tt.defaults, tt.caps)
			if (err != nil) != tt.err {
				t.Fatalf("err %v, want error %v", err, tt.err)
			}
			if err == nil && (def != tt.wantDef || caps != tt.wantCap) {
				t.Fatalf("got %+v / %+v, want %+v / %+v", def, caps, tt.wantDef, tt.wantCap)
			}
		})
	}
}

func (l Limits) withTimeout(d time.Duration) Limits { l.Timeout = d; return l }
func (l Limits) withMemory(n int64) Limits          { l.MemoryBytes = n; return l }
func (l Limits) withOutput(n int64) Limits          { l.OutputBytes = n; return l }

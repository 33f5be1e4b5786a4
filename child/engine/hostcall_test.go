package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// TestHostCallsCopyWithinBudget: a guest handing a host function a huge
// string makes the Go side copy no more than the budget that argument
// can use (the output limit for logs, nothing for sha256, the data limit
// for host.request). Measured as Go heap bytes allocated by the
// execution, against the same execution with a one-byte string; the
// engine reserves linear memory up front, so that is the same in both.
func TestHostCallsCopyWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 50 MiB guest string; skipped with -short")
	}
	ctx := context.Background()
	e, err := New(ctx, Config{CacheDir: testCacheDir, CloseOnContextDone: true, ReserveLinearMemory: true, MemoryBytes: 160 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	var got int
	handler := func(_ context.Context, _ string, args json.RawMessage) (json.RawMessage, error) {
		got = len(args)
		return json.RawMessage("1"), nil
	}
	allocated := func(size int, call string) (uint64, contract.Result) {
		req := contract.Request{
			Code:   fmt.Sprintf("const s = 'x'.repeat(%d); %s; return 1", size, call),
			Limits: contract.Limits{MemoryBytes: 160 << 20, Timeout: 20 * time.Second},
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res := e.Execute(ctx, req, RunOptions{Handler: handler})
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, res
	}
	const big = 50 << 20
	const bound = 8 << 20 // the 1 MiB output limit, the envelope, wazero's own garbage
	tests := []struct {
		name string
		call string
		want want
	}{
		{"console.log", "console.log(s)", want{value: "1"}},
		{"sha256", "sha256(s)", want{value: "1"}},
		{"host.request args", "await host.request('x', s)", want{errType: contract.ResourceError, kind: contract.KindDataBytes}},
		{"host.request name", "await host.request(s)", want{errType: contract.ResourceError, kind: contract.KindDataBytes}},
	}
	allocated(1, "console.log(s)") // the first execution on a new engine sets up more
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			small, res := allocated(1, tt.call)
			if !res.OK {
				t.Fatalf("one-byte string: %+v", res.Error)
			}
			got = 0
			large, res := allocated(big, tt.call)
			check(t, res, tt.want)
			t.Logf("Go heap allocated: %d KiB with a 1-byte string, %d KiB with a %d MiB string", small>>10, large>>10, big>>20)
			if large > small+bound {
				t.Fatalf("the execution allocated %d MiB more Go heap for a %d MiB string (bound %d MiB)", (large-small)>>20, big>>20, bound>>20)
			}
			if got > 0 {
				t.Fatalf("the data handler saw %d bytes of arguments over the data limit", got)
			}
		})
	}
}

// TestLogsEncodeWithinTheOutputLimit: every entry costs its JSON
// envelope, so a million empty console.log calls cannot make the logs
// encode larger than the output limit.
func TestLogsEncodeWithinTheOutputLimit(t *testing.T) {
	tests := []struct {
		name string
		code string
	}{
		{"empty entries", "for (let i = 0; i < 1e6; i++) console.log(); return 1"},
		{"escaped text", "for (let i = 0; i < 1e5; i++) console.log('<\\u0001\\u2028\"'.repeat(10)); return 1"},
		{"one per level", "for (let i = 0; i < 1e5; i++) { console.log(''); console.debug(''); console.error('') } return 1"},
	}
	const limit = 64 << 10
	// Under an output limit smaller than the truncation marker, the
	// marker is left out too.
	res := run(t, contract.Request{Code: "console.log('x'); return 1", Limits: contract.Limits{OutputBytes: 40}}, RunOptions{})
	check(t, res, want{value: "1"})
	if enc, _ := json.Marshal(res.Logs); len(enc) > 40 {
		t.Fatalf("logs %s over a 40-byte output limit", enc)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, contract.Request{Code: tt.code, Limits: contract.Limits{OutputBytes: limit, Timeout: 30 * time.Second}}, RunOptions{})
			check(t, res, want{value: "1"})
			enc, err := json.Marshal(res.Logs)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d entries, %d bytes of JSON, log_bytes %d", len(res.Logs), len(enc), res.Stats.LogBytes)
			if len(enc) > limit {
				t.Fatalf("logs encode to %d bytes, over the %d-byte output limit", len(enc), limit)
			}
			if len(enc) < limit/2 {
				t.Fatalf("logs encode to only %d bytes: the budget is counted too high", len(enc))
			}
			if last := res.Logs[len(res.Logs)-1]; last.Text != logTruncatedMarker {
				t.Fatalf("want the truncation marker last, got %+v", last)
			}
			if res.Stats.LogBytes > limit {
				t.Fatalf("log_bytes %d over the limit", res.Stats.LogBytes)
			}
		})
	}
}

// TestDataLimits: host.request calls are bounded in number and in bytes
// both ways; going over either ends the execution with a ResourceError
// the guest cannot catch.
func TestDataLimits(t *testing.T) {
	answer := json.RawMessage(`"` + strings.Repeat("a", 1<<20-2) + `"`) // 1 MiB
	handler := func(_ context.Context, name string, _ json.RawMessage) (json.RawMessage, error) {
		if name == "big" {
			return answer, nil
		}
		return json.RawMessage("1"), nil
	}
	loop := func(n int, name string) string {
		return fmt.Sprintf("let s = 0; for (let i = 0; i < %d; i++) { try { s += (await host.request(%q)).length || 1 } catch (e) {} } return s", n, name)
	}
	tests := []struct {
		name   string
		code   string
		limits contract.Limits
		want   want
	}{
		{"1000 requests by default", loop(1000, "n"), contract.Limits{}, want{value: "1000"}},
		{"1001 requests by default", loop(1001, "n"), contract.Limits{}, want{errType: contract.ResourceError, kind: contract.KindDataRequests}},
		{"raised count", loop(1001, "n"), contract.Limits{DataRequests: 1001}, want{value: "1001"}},
		{"answers within data_bytes", loop(3, "big"), contract.Limits{DataBytes: 4 << 20}, want{value: fmt.Sprint(3 * (1<<20 - 2))}},
		{"answers over data_bytes", loop(5, "big"), contract.Limits{DataBytes: 4 << 20}, want{errType: contract.ResourceError, kind: contract.KindDataBytes}},
		{"args over data_bytes", "await host.request('n', 'x'.repeat(5000)); return 1", contract.Limits{DataBytes: 4096}, want{errType: contract.ResourceError, kind: contract.KindDataBytes}},
		{"args and answers add up", "for (let i = 0; i < 10; i++) await host.request('n', 'x'.repeat(500)); return 1", contract.Limits{DataBytes: 4096}, want{errType: contract.ResourceError, kind: contract.KindDataBytes}},
		{"cannot be caught", "try { for (let i = 0; i < 2; i++) await host.request('n') } catch (e) { return 'caught' } return 'done'", contract.Limits{DataRequests: 1}, want{errType: contract.ResourceError, kind: contract.KindDataRequests}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.limits.Timeout = 20 * time.Second
			res := run(t, contract.Request{Code: tt.code, Limits: tt.limits}, RunOptions{Handler: handler})
			check(t, res, tt.want)
			if res.Limits.DataRequests == 0 || res.Limits.DataBytes == 0 {
				t.Fatalf("limits in force lack the data limits: %+v", res.Limits)
			}
		})
	}
}

package supervisor

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
)

// runaways are code the child's engine deadline cannot stop, or stops
// late: only the supervisor's kill ends them for sure. The fault needs
// a -tags wardenfaults build (faultsBuilt).
var runaways = []struct {
	name, code string
	fault      bool
}{
	{"slow_builtin", "console.log('before'); const a = new Array(1e6).fill(0); for (let i = 0; i < 1e6; i++) a.indexOf(1); return 1", false},
	{"regex", `console.log('before'); return /^(a+)+$/.test("a".repeat(64) + "!")`, false},
	{"getter_loop", "console.log('before'); const o = { get x() { while (true) {} } }; return o.x", false},
	{"go_burn", "//fault:burn", true},
}

// BenchmarkRunawayStop measures how long past its deadline a runaway
// execution ends, as its caller sees it: end - (call + timeout), over
// the runaway kinds in turn, one execution at a time on a warm pool.
// It reports the p50, p99 and max of that lateness overall and the p50
// and max per kind. Run it with -benchtime=100x and -tags wardenfaults
// (without the tag the Go-side kind is left out); BENCHMARKS.md has the
// command. WARDEN_BENCH_TIMEOUT overrides the 300ms timeout.
func BenchmarkRunawayStop(b *testing.B) {
	timeout := 300 * time.Millisecond
	if v := os.Getenv("WARDEN_BENCH_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		timeout = d
	}
	kinds := runaways[:0:0]
	for _, k := range runaways {
		if !k.fault || faultsBuilt {
			kinds = append(kinds, k)
		}
	}
	s := newSup(b, func(c *Config) { c.PoolSize = 2 })
	all := []float64{}
	per := make([][]float64, len(kinds))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for s.Stats().Pool.Idle < 2 {
			waitABit()
		}
		b.StartTimer()
		k := i % len(kinds)
		start := time.Now()
		_, err := s.Execute(context.Background(), contract.Request{Code: kinds[k].code,
			Limits: contract.Limits{Timeout: timeout, MemoryBytes: 32 << 20}}, nil)
		late := float64(time.Since(start)-timeout) / float64(time.Millisecond)
		if !errors.Is(err, contract.ErrTimeout) {
			b.Fatalf("%s: want TimeoutError, got %v", kinds[k].name, err)
		}
		all = append(all, late)
		per[k] = append(per[k], late)
	}
	b.StopTimer()
	b.ReportMetric(quantile(all, 0.5), "late-p50-ms")
	b.ReportMetric(quantile(all, 0.99), "late-p99-ms")
	b.ReportMetric(quantile(all, 1), "late-max-ms")
	for k, v := range per {
		if len(v) > 0 {
			b.ReportMetric(quantile(v, 0.5), kinds[k].name+"-p50-ms")
			b.ReportMetric(quantile(v, 1), kinds[k].name+"-max-ms")
		}
	}
	b.ReportMetric(0, "ns/op")
}

// quantile is the q-quantile of v by the nearest-rank method.
func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

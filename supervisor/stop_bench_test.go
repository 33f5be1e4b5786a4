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
// execution ends, as its caller sees it: end - deadline, where the
// deadline is the timeout after the supervisor got a child, over
// the runaway kinds in turn, one execution at a time on a warm pool.
// It reports the p50, p99 and max of that lateness overall and the p50
// and max per kind. Run it with -benchtime=100x and -tags wardenfaults
// (without the tag the Go-side kind is left out); BENCHMARKS.md has the
// command. WARDEN_BENCH_TIMEOUT overrides the 300ms timeout and
// WARDEN_BENCH_KILL_GRACE the default KillGrace; kills-pct is the share
// of runs the supervisor's kill ended (the rest the child's engine
// stopped).
func BenchmarkRunawayStop(b *testing.B) {
	timeout := envDuration(b, "WARDEN_BENCH_TIMEOUT", 300*time.Millisecond)
	grace := envDuration(b, "WARDEN_BENCH_KILL_GRACE", 0)
	kinds := runaways[:0:0]
	for _, k := range runaways {
		if !k.fault || faultsBuilt {
			kinds = append(kinds, k)
		}
	}
	s := newSup(b, func(c *Config) { c.PoolSize = 2; c.KillGrace = grace; c.Defaults.MemoryBytes = 32 << 20 })
	kills0 := s.Stats().Kills
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
		res, err := s.Execute(context.Background(), contract.Request{Code: kinds[k].code,
			Limits: contract.Limits{Timeout: timeout}}, nil)
		// The deadline runs from when the child got the request, after
		// the wait for it.
		late := float64(time.Since(start)-timeout)/float64(time.Millisecond) - res.Stats.QueueWaitMS
		if !errors.Is(err, contract.ErrTimeout) {
			b.Fatalf("%s: want TimeoutError, got %v", kinds[k].name, err)
		}
		if late > 40 {
			b.Logf("%s ended %.1f ms late; wall_ms %.1f, queue %.1f ms", kinds[k].name, late, res.Stats.WallMS, res.Stats.QueueWaitMS)
		}
		all = append(all, late)
		per[k] = append(per[k], late)
	}
	b.StopTimer()
	b.ReportMetric(float64(s.Stats().Kills-kills0)*100/float64(b.N), "kills-pct")
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

// envDuration is the duration in environment variable name, or def.
func envDuration(b *testing.B, name string, def time.Duration) time.Duration {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return d
}

// quantile is the q-quantile of v by the nearest-rank method.
func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[max(0, min(i, len(s)-1))]
}

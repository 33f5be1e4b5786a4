package supervisor

import (
	"context"
	"testing"

	"github.com/wardenhq/warden/contract"
)

// BenchmarkChildMemory measures what a child's cgroup peaks at, the
// measurement behind DefaultMemoryOverhead: reported as cgroup-peak-MiB
// (and the part above the wasm linear memory as overhead-MiB) for a
// trivial script and for one that fills 12 MiB of the 16 MiB heap.
func BenchmarkChildMemory(b *testing.B) {
	for _, bc := range []struct{ name, code string }{
		{"trivial", "return input"},
		{"12MiB", "const a = []; for (let i = 0; i < 12; i++) a.push(new Uint8Array(1 << 20).fill(1)); return a.length"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := newSup(b, func(c *Config) { c.Cgroups = CgroupsRequired; c.PoolSize = 1 })
			var peak, over float64
			for i := 0; i < b.N; i++ {
				res, err := s.Execute(context.Background(), contract.Request{Code: bc.code}, nil)
				if err != nil {
					b.Fatal(err)
				}
				peak += float64(res.Stats.CgroupPeakBytes) / (1 << 20)
				over += float64(res.Stats.CgroupPeakBytes-res.Stats.PeakMemoryBytes) / (1 << 20)
			}
			b.ReportMetric(peak/float64(b.N), "cgroup-peak-MiB")
			b.ReportMetric(over/float64(b.N), "overhead-MiB")
		})
	}
}

// BenchmarkExecuteWarm is one execution on a warm pool, paced so that a
// child is always ready (spawning happens between iterations).
func BenchmarkExecuteWarm(b *testing.B) {
	s := newSup(b, func(c *Config) { c.PoolSize = 2 })
	req := contract.Request{Code: "return input.a + input.b", Input: []byte(`{"a":1,"b":2}`)}
	s.Execute(context.Background(), req, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for s.Stats().Pool.Idle < 2 {
			waitABit()
		}
		b.StartTimer()
		if _, err := s.Execute(context.Background(), req, nil); err != nil {
			b.Fatal(err)
		}
	}
}

package stress

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
)

// TestHistogramPercentilesWithinHalfAPercent: the histogram's percentiles
// are within its bucket width of the exact ones, over latencies spread
// across five orders of magnitude.
func TestHistogramPercentilesWithinHalfAPercent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h histogram
	var all []float64
	for range 100_000 {
		ms := math.Exp(rng.NormFloat64()*2 + 3) // median e^3 ≈ 20 ms, long tails
		all = append(all, ms)
		h.add(ms)
	}
	slices.Sort(all)
	exact := func(q float64) float64 { return all[min(len(all)-1, int(q*float64(len(all))))] }
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		got, want := h.quantile(q), exact(q)
		if math.Abs(got/want-1) > 0.005 {
			t.Errorf("q%v = %v, exact %v: off by %.2f%%", q, got, want, 100*math.Abs(got/want-1))
		}
	}
	p := h.percentiles()
	if p.N != len(all) || p.Max != all[len(all)-1] {
		t.Errorf("percentiles n=%d max=%v, want n=%d max=%v", p.N, p.Max, len(all), all[len(all)-1])
	}
	var empty histogram
	if p := empty.percentiles(); p != (Percentiles{}) {
		t.Errorf("no latencies gave %+v", p)
	}
	var tiny histogram
	tiny.add(0)
	tiny.add(1e12) // past the last bucket: counted there, max exact
	if tiny.quantile(0) != 0 || tiny.quantile(1) != 1e12 {
		t.Errorf("extremes: q0=%v q1=%v", tiny.quantile(0), tiny.quantile(1))
	}
}

// TestSeriesBoundedKeepsSpikes: however many executions, the latency
// series holds at most maxWindows windows that together count every
// execution, keep the overall mean and the single highest latency.
func TestSeriesBoundedKeepsSpikes(t *testing.T) {
	var s series
	const n = 123_457
	sum := 0.0
	for i := range n {
		ms := 10.0
		if i == 77_777 {
			ms = 5000 // one spike
		}
		sum += ms
		s.add(time.Duration(i)*time.Millisecond, ms)
	}
	if len(s.windows) > maxWindows || len(s.windows) < maxWindows/2 {
		t.Fatalf("%d windows, want (%d, %d]", len(s.windows), maxWindows/2, maxWindows)
	}
	total, weighted, peak := 0, 0.0, 0.0
	for i, w := range s.windows {
		total += w.N
		weighted += w.MeanMS * float64(w.N)
		peak = max(peak, w.MaxMS)
		if w.To < w.From || (i > 0 && w.From <= s.windows[i-1].To) {
			t.Fatalf("window %d spans %v..%v after one ending %v", i, w.From, w.To, s.windows[max(i-1, 0)].To)
		}
	}
	if total != n || math.Abs(weighted-sum) > 1e-6*sum || peak != 5000 {
		t.Errorf("windows count %d (want %d), sum %v (want %v), peak %v (want 5000)", total, n, weighted, sum, peak)
	}
}

// TestSamplesThinnedEvenly: the audit keeps at most maxSamples samples,
// evenly spaced over the whole run, and the peak of every reading.
func TestSamplesThinnedEvenly(t *testing.T) {
	var (
		samples []Sample
		peak    Sample
		every   = 1
	)
	const readings = 9_000
	for i := range readings {
		s := Sample{At: time.Duration(i) * time.Second, RSSBytes: int64(i % 1000), Processes: i % 7}
		peakOf(&peak, s)
		if i%every == 0 {
			samples = keepSample(samples, s, &every)
		}
	}
	if len(samples) > maxSamples || len(samples) < maxSamples/4 {
		t.Fatalf("%d samples kept, want within (%d, %d]", len(samples), maxSamples/4, maxSamples)
	}
	gap := samples[1].At - samples[0].At
	for i := 1; i < len(samples); i++ {
		if d := samples[i].At - samples[i-1].At; d != gap {
			t.Fatalf("samples %d and %d are %v apart, the first two %v", i-1, i, d, gap)
		}
	}
	if last := samples[len(samples)-1].At; last < time.Duration(readings)*time.Second-2*gap {
		t.Errorf("the last sample kept is at %v, of a run of %d s", last, readings)
	}
	if peak.RSSBytes != 999 || peak.Processes != 6 {
		t.Errorf("peak %+v", peak)
	}
}

// TestTallyCounts: the tally sorts executions into passed, failed, known
// and skipped, keeps at most maxFailuresKept envelopes of a script, and
// leaves the warm-up out of the baseline's latency only.
func TestTallyCounts(t *testing.T) {
	bad := &attacks.Script{Name: "x/bad", Category: "x"}
	known := &attacks.Script{Name: "x/known", Category: "x", Known: "why"}
	good := &attacks.Script{Name: "benign/one", Category: "benign"}
	tl := newTally(2)
	for i := range 5 {
		tl.add("baseline", "benign", attacks.Report{Script: good, Elapsed: time.Duration(100*(i+1)) * time.Millisecond}, 0)
	}
	fail := errors.New("expectation broken")
	for range 10 {
		tl.add("mixed", "attack", attacks.Report{Script: bad, Err: fail, Result: contract.Result{Value: []byte(`"x"`)}}, time.Second)
		tl.add("mixed", "attack", attacks.Report{Script: known, Err: fail}, time.Second)
		tl.add("mixed", "fault", attacks.Report{Script: good, Err: skipped{"not here"}}, time.Second)
		tl.add("mixed", "benign", attacks.Report{Script: good, Elapsed: 7 * time.Millisecond}, time.Second)
	}
	if tl.executions != 45 || tl.failures != 10 || tl.known != 10 || tl.skipped != 10 || tl.mixedN != 40 {
		t.Errorf("executions %d failures %d known %d skipped %d mixed %d", tl.executions, tl.failures, tl.known, tl.skipped, tl.mixedN)
	}
	if n := len(tl.scripts["x/bad"].Failures); n != maxFailuresKept {
		t.Errorf("%d failures kept, want %d", n, maxFailuresKept)
	}
	if b := tl.baseline.percentiles(); b.N != 3 || b.Max != 500 || math.Abs(b.P50/400-1) > 0.005 {
		t.Errorf("baseline %+v, want the last 3 of 5 (300, 400, 500 ms)", b)
	}
	if d := tl.during.percentiles(); d.N != 10 || d.Max != 7 {
		t.Errorf("during %+v", d)
	}
	if c := tl.categories["x"]; c.Failed != 10 || c.Known != 10 {
		t.Errorf("category x %+v", c)
	}
}

package stress

import (
	"math"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
)

// tally adds up executions as they end, in memory that does not grow
// with the run: per-script and per-category counts with the first few
// failures, latency histograms and a latency series of bounded length.
// The runner and the supervisor share one process, so a runner that kept
// every execution would make a soak's RSS curve its own: keeping 100,000
// envelopes made the first soak's RSS grow 185%.
type tally struct {
	mu         sync.Mutex
	warm       int // baseline executions that only warm the pool up
	baselineN  int
	mixedN     int
	scripts    map[string]*ScriptResult
	categories map[string]*CategoryResult
	executions int
	failures   int
	known      int
	skipped    int
	baseline   histogram
	during     histogram
	latency    series
}

func newTally(warm int) *tally {
	return &tally{warm: warm, scripts: map[string]*ScriptResult{}, categories: map[string]*CategoryResult{}}
}

// add counts one finished execution of phase ("baseline" or "mixed")
// that ended at (since the run started).
func (t *tally) add(phase, kind string, rep attacks.Report, at time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := rep.Script
	sr := t.scripts[s.Name]
	if sr == nil {
		sr = &ScriptResult{Name: s.Name, Category: s.Category, Source: s.Source, Known: s.Known, Expect: s.Expect.String()}
		t.scripts[s.Name] = sr
	}
	cr := t.categories[s.Category]
	if cr == nil {
		cr = &CategoryResult{Name: s.Category}
		t.categories[s.Category] = cr
	}
	t.executions++
	switch {
	case rep.Err == nil:
		sr.Passed++
		cr.Passed++
	case isSkipped(rep.Err):
		sr.Skipped++
		cr.Skipped++
		t.skipped++
	case s.Known != "":
		sr.Failed++
		cr.Known++
		t.known++
	default:
		sr.Failed++
		cr.Failed++
		t.failures++
	}
	if rep.Err != nil && !isSkipped(rep.Err) && len(sr.Failures) < maxFailuresKept {
		env := keepEnvelope(rep)
		env.Stats = contract.Stats{QueueWaitMS: env.Stats.QueueWaitMS, WallMS: env.Stats.WallMS, ChildPID: env.Stats.ChildPID}
		sr.Failures = append(sr.Failures, Failure{Error: rep.Err.Error(), Envelope: env})
	}
	ms := millis(rep.Elapsed)
	switch phase {
	case "baseline":
		// The first executions also wait for the pool's first children:
		// they warm it up and are not part of the baseline.
		if t.baselineN++; t.baselineN > t.warm {
			t.baseline.add(ms)
		}
	case "mixed":
		t.mixedN++
		if kind == "benign" {
			t.during.add(ms)
			t.latency.add(at, ms)
		}
	}
}

// histogram counts latencies in logarithmic buckets 0.5% wide, from
// histMinMS to about three hours: any percentile is within 0.5% of the
// exact one, in 18 KiB however many executions there are.
type histogram struct {
	counts [histBuckets]uint32
	n      int
	min    float64
	max    float64
}

const (
	histMinMS   = 0.001
	histGrowth  = 1.005
	histBuckets = 4700 // histMinMS * histGrowth^4700 ≈ 1.5e7 ms
)

var histLogGrowth = math.Log(histGrowth)

func (h *histogram) add(ms float64) {
	i := 0
	if ms > histMinMS {
		i = min(int(math.Log(ms/histMinMS)/histLogGrowth), histBuckets-1)
	}
	h.counts[i]++
	if h.n == 0 || ms < h.min {
		h.min = ms
	}
	h.max = max(h.max, ms)
	h.n++
}

// quantile is the q-quantile (the value at rank q·n of the sorted
// latencies): its bucket's geometric middle, kept within the extremes,
// which are exact.
func (h *histogram) quantile(q float64) float64 {
	rank := min(h.n-1, int(q*float64(h.n)))
	switch rank {
	case 0:
		return h.min
	case h.n - 1:
		return h.max
	}
	seen := 0
	for i, c := range h.counts {
		if seen += int(c); seen > rank {
			mid := histMinMS * math.Pow(histGrowth, float64(i)+0.5)
			return min(max(mid, h.min), h.max)
		}
	}
	return h.max
}

func (h *histogram) percentiles() Percentiles {
	if h.n == 0 {
		return Percentiles{}
	}
	return Percentiles{N: h.n, P50: h.quantile(0.5), P90: h.quantile(0.9), P99: h.quantile(0.99), Max: h.max}
}

// maxWindows bounds the latency series: past it, neighbouring windows
// merge in pairs.
const maxWindows = 1000

// series is the benign latency over the run as windows of equally many
// executions, at most maxWindows of them: each window's mean and
// maximum, so a spike survives the merging.
type series struct {
	windows []Window
	span    int // executions per window
}

func (s *series) add(at time.Duration, ms float64) {
	if s.span == 0 {
		s.span = 1
	}
	if n := len(s.windows); n == 0 || s.windows[n-1].N >= s.span {
		if n == maxWindows {
			s.halve()
		}
		s.windows = append(s.windows, Window{From: at})
	}
	w := &s.windows[len(s.windows)-1]
	w.MeanMS += (ms - w.MeanMS) / float64(w.N+1)
	w.MaxMS = max(w.MaxMS, ms)
	w.To = at
	w.N++
}

// halve merges neighbouring windows, so each covers twice the executions.
func (s *series) halve() {
	out := s.windows[:0]
	for i := 0; i < len(s.windows); i += 2 {
		w := s.windows[i]
		if i+1 < len(s.windows) {
			v := s.windows[i+1]
			w.MeanMS = (w.MeanMS*float64(w.N) + v.MeanMS*float64(v.N)) / float64(w.N+v.N)
			w.MaxMS = max(w.MaxMS, v.MaxMS)
			w.To = v.To
			w.N += v.N
		}
		out = append(out, w)
	}
	s.windows = out
	s.span *= 2
}

// maxSamples bounds the audit's samples: past it, every other one is
// dropped and sampling slows by half. Report.Peak keeps the maxima of
// every reading.
const maxSamples = 2000

// keepSample adds s to samples, thinning them when full; every is how
// many readings the sampler takes per sample it keeps, doubled by each
// thinning.
func keepSample(samples []Sample, s Sample, every *int) []Sample {
	if len(samples) == maxSamples {
		out := samples[:0]
		for i := 0; i < len(samples); i += 2 {
			out = append(out, samples[i])
		}
		samples = out
		*every *= 2
	}
	return append(samples, s)
}

// peakOf raises each field of peak to s's when s's is higher.
func peakOf(peak *Sample, s Sample) {
	peak.RSSBytes = max(peak.RSSBytes, s.RSSBytes)
	peak.HeapBytes = max(peak.HeapBytes, s.HeapBytes)
	peak.Goroutines = max(peak.Goroutines, s.Goroutines)
	peak.FDs = max(peak.FDs, s.FDs)
	peak.Processes = max(peak.Processes, s.Processes)
	peak.Cgroups = max(peak.Cgroups, s.Cgroups)
}

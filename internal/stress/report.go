package stress

import (
	"encoding/json"
	"fmt"
	"github.com/wardenhq/warden/internal/median"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/wardenhq/warden/contract"
)

// Report is what a stress run found.
type Report struct {
	mu sync.Mutex

	OK          bool    `json:"ok"`
	Executions  int     `json:"executions"`
	Failures    int     `json:"failures"`
	Known       int     `json:"known_failures"`
	Skipped     int     `json:"skipped_faults"`
	Concurrency int     `json:"concurrency"`
	Seed        uint64  `json:"seed"`
	WallSeconds float64 `json:"wall_seconds"`
	// Rate is the mixed run's executions per second, BaselineRate the
	// benign run's alone (the reference measured in the same run).
	Rate         float64          `json:"rate_per_second"`
	BaselineRate float64          `json:"baseline_rate_per_second"`
	Categories   []CategoryResult `json:"categories"`
	Scripts      []ScriptResult   `json:"scripts"`
	// Benign latency, alone (baseline) and during the mixed run.
	Baseline    Percentiles `json:"benign_baseline"`
	During      Percentiles `json:"benign_during"`
	SlowdownP50 float64     `json:"slowdown_p50"`
	SlowdownP99 float64     `json:"slowdown_p99"`
	MaxSlowdown float64     `json:"max_slowdown"`
	// Latency is the benign executions of the mixed run over time, in at
	// most 1,000 windows of equally many executions.
	Latency []Window `json:"benign_latency"`
	// The leak audit: before the supervisor existed, sampled during,
	// after it closed, and what was left. Samples are thinned to at most
	// 2,000 (evenly spaced); Peak is the highest of every reading.
	Before  Snapshot `json:"audit_before"`
	Samples []Sample `json:"audit_samples"`
	Peak    Sample   `json:"audit_peak"`
	After   Snapshot `json:"audit_after"`
	Leaks   []string `json:"leaks"`
	// RSSGrowth is the supervisor process's RSS over the last tenth of the
	// executions against the first tenth (median of the samples in each),
	// minus one: 0.05 is 5% growth. A soak's trend; short runs include
	// the warm-up. Zero when either tenth has no sample.
	RSSGrowth float64 `json:"rss_growth"`
	// Server: the run went to a daemon (Config.Remote); the audit above
	// is then of this client process, and DaemonBefore and DaemonAfter
	// are the daemon's children by state.
	Server       bool           `json:"server,omitempty"`
	DaemonBefore map[string]int `json:"daemon_children_before,omitempty"`
	DaemonAfter  map[string]int `json:"daemon_children_after,omitempty"`
}

// CategoryResult counts one category's executions.
type CategoryResult struct {
	Name   string `json:"name"`
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
	Known  int    `json:"known"`
	// Skipped counts faults that could not be injected here.
	Skipped int `json:"skipped,omitempty"`
}

// ScriptResult counts one script's executions, with the first failures.
type ScriptResult struct {
	Name     string    `json:"name"`
	Category string    `json:"category"`
	Source   string    `json:"source,omitempty"`
	Known    string    `json:"known,omitempty"`
	Expect   string    `json:"expect"`
	Passed   int       `json:"passed"`
	Failed   int       `json:"failed"`
	Skipped  int       `json:"skipped,omitempty"`
	Failures []Failure `json:"failures,omitempty"`
}

// maxFailuresKept is how many failures of one script the report keeps.
const maxFailuresKept = 3

// Failure is one execution that did not meet its expectation.
type Failure struct {
	Error    string          `json:"error"`
	Envelope contract.Result `json:"envelope"`
}

// EnvelopeJSON is the failure's envelope as JSON.
func (f Failure) EnvelopeJSON() string {
	b, _ := json.Marshal(f.Envelope)
	return string(b)
}

// Percentiles of a latency sample, in milliseconds.
type Percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P90 float64 `json:"p90_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// Window is the benign executions of one stretch of the mixed run: when
// the first and the last ended, how many, their mean and their maximum
// latency.
type Window struct {
	From   time.Duration `json:"from_ns"`
	To     time.Duration `json:"to_ns"`
	N      int           `json:"n"`
	MeanMS float64       `json:"mean_ms"`
	MaxMS  float64       `json:"max_ms"`
}

// Sample is one audit reading during the run.
type Sample struct {
	At         time.Duration `json:"at_ns"`
	RSSBytes   int64         `json:"rss_bytes"`
	HeapBytes  int64         `json:"heap_bytes"`
	Goroutines int           `json:"goroutines"`
	FDs        int           `json:"fds"`
	Processes  int           `json:"processes"`
	Cgroups    int           `json:"cgroups"`
	// Executions is how many executions had ended when it was taken.
	Executions int `json:"executions"`
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// build fills the report from the tally of both phases.
func (rep *Report) build(t *tally, mixElapsed time.Duration) {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	rep.Executions, rep.Failures, rep.Known, rep.Skipped = t.executions, t.failures, t.known, t.skipped
	for _, sr := range t.scripts {
		rep.Scripts = append(rep.Scripts, *sr)
	}
	sort.Slice(rep.Scripts, func(i, j int) bool { return rep.Scripts[i].Name < rep.Scripts[j].Name })
	for _, cr := range t.categories {
		rep.Categories = append(rep.Categories, *cr)
	}
	sort.Slice(rep.Categories, func(i, j int) bool { return rep.Categories[i].Name < rep.Categories[j].Name })
	rep.Latency = slices.Clone(t.latency.windows)
	rep.Baseline, rep.During = t.baseline.percentiles(), t.during.percentiles()
	if rep.Baseline.P50 > 0 {
		rep.SlowdownP50 = rep.During.P50 / rep.Baseline.P50
	}
	if rep.Baseline.P99 > 0 {
		rep.SlowdownP99 = rep.During.P99 / rep.Baseline.P99
	}
	rep.WallSeconds = rep.After.At.Seconds()
	if mixElapsed > 0 {
		rep.Rate = float64(t.mixedN) / mixElapsed.Seconds()
	}
	rep.RSSGrowth = rssGrowth(rep.Samples, rep.Executions)
	rep.OK = rep.Failures == 0 && len(rep.Leaks) == 0 && rep.SlowdownP50 <= rep.MaxSlowdown
}

// rssGrowth compares the median RSS of the samples taken during the first
// tenth of n executions with that of the last tenth.
func rssGrowth(samples []Sample, n int) float64 {
	var first, last []int64
	for _, s := range samples {
		switch {
		case s.Executions > 0 && s.Executions <= n/10:
			first = append(first, s.RSSBytes)
		case s.Executions >= n-n/10:
			last = append(last, s.RSSBytes)
		}
	}
	if len(first) == 0 || len(last) == 0 {
		return 0
	}
	return median.Of(last)/median.Of(first) - 1
}

// WriteJSON writes the report as JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the report for a person: the verdict, categories,
// failed scripts with their envelopes, latency and the audit.
func (rep *Report) WriteText(w io.Writer) {
	rep.mu.Lock()
	defer rep.mu.Unlock()
	rep.writeText(w)
}

func (rep *Report) writeText(w io.Writer) {
	verdict := "PASS"
	if !rep.OK {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "%s: %d executions, %d failed, %d known failures, %d faults skipped; %.1f executions/s at concurrency %d (benign alone: %.1f/s); %.1f s (seed %d)\n\n",
		verdict, rep.Executions, rep.Failures, rep.Known, rep.Skipped, rep.Rate, rep.Concurrency, rep.BaselineRate, rep.WallSeconds, rep.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "category\tpassed\tfailed\tknown\tskipped")
	for _, c := range rep.Categories {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", c.Name, c.Passed, c.Failed, c.Known, c.Skipped)
	}
	tw.Flush()
	for _, s := range rep.Scripts {
		if s.Failed == 0 && s.Skipped == 0 {
			continue
		}
		mark := "FAILED"
		switch {
		case s.Failed == 0:
			mark = "skipped"
		case s.Known != "":
			mark = "known failure (" + s.Known + ")"
		}
		fmt.Fprintf(w, "\n%s: %s, %d of %d runs; expects %s\n", s.Name, mark, s.Failed+s.Skipped, s.Passed+s.Failed+s.Skipped, s.Expect)
		for _, f := range s.Failures {
			fmt.Fprintf(w, "  %s\n  envelope: %.600s\n", f.Error, f.EnvelopeJSON())
		}
	}
	fmt.Fprintf(w, "\nbenign latency (ms)  alone: p50 %.1f p90 %.1f p99 %.1f (n=%d)   during the attacks: p50 %.1f p90 %.1f p99 %.1f (n=%d)\n",
		rep.Baseline.P50, rep.Baseline.P90, rep.Baseline.P99, rep.Baseline.N, rep.During.P50, rep.During.P90, rep.During.P99, rep.During.N)
	ok := "within"
	if rep.SlowdownP50 > rep.MaxSlowdown {
		ok = "OVER"
	}
	fmt.Fprintf(w, "slowdown: p50 x%.2f (%s the stated x%.1f), p99 x%.2f\n", rep.SlowdownP50, ok, rep.MaxSlowdown, rep.SlowdownP99)
	if rep.Server {
		fmt.Fprintf(w, "\nthe daemon's children (its /metrics): before %v, after %v\naudit of this client process:", rep.DaemonBefore, rep.DaemonAfter)
	}
	fmt.Fprintf(w, "\naudit            before  after  peak during\n")
	p := rep.Peak
	fmt.Fprintf(w, "processes        %6d %6d %6d\n", len(rep.Before.Processes), len(rep.After.Processes), p.Processes)
	fmt.Fprintf(w, "open fds         %6d %6d %6d\n", rep.Before.FDCount(), rep.After.FDCount(), p.FDs)
	fmt.Fprintf(w, "cgroups          %6d %6d %6d\n", len(rep.Before.Cgroups), len(rep.After.Cgroups), p.Cgroups)
	fmt.Fprintf(w, "goroutines       %6d %6d %6d\n", rep.Before.Goroutines, rep.After.Goroutines, p.Goroutines)
	fmt.Fprintf(w, "temp entries     %6d %6d\n", len(rep.Before.TempEntries), len(rep.After.TempEntries))
	fmt.Fprintf(w, "RSS MiB          %6.1f %6.1f %6.1f\n", mib(rep.Before.RSSBytes), mib(rep.After.RSSBytes), mib(p.RSSBytes))
	fmt.Fprintf(w, "Go heap MiB      %6.1f %6.1f %6.1f\n", mib(rep.Before.HeapBytes), mib(rep.After.HeapBytes), mib(p.HeapBytes))
	fmt.Fprintf(w, "RSS growth, first to last tenth of the executions: %+.1f%%\n", 100*rep.RSSGrowth)
	if len(rep.Leaks) == 0 {
		fmt.Fprintln(w, "left behind: nothing")
	} else {
		fmt.Fprintf(w, "left behind:\n  %s\n", strings.Join(rep.Leaks, "\n  "))
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/wardenhq/warden/child/engine"
	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/supervisor"
)

// benchReport is what `warden bench` measured.
type benchReport struct {
	Script      string  `json:"script"`
	Executions  int     `json:"executions"`
	Concurrency int     `json:"concurrency"`
	PoolSize    int     `json:"pool_size"`
	Rate        float64 `json:"rate_per_second,omitempty"`
	Failures    int     `json:"failures"`
	Supervised  runStat `json:"supervised"`
	InProcess   runStat `json:"in_process"`
	// Spawn is the child spawn-to-ready time the pool saw.
	SpawnP50MS float64 `json:"spawn_p50_ms"`
	SpawnP90MS float64 `json:"spawn_p90_ms"`
	// ChildCPUMS is the mean CPU time of one child (start-up and
	// execution), from the reaped child's rusage.
	ChildCPUMS float64 `json:"child_cpu_ms"`
	// SupervisorCPUMS is this process's CPU time per execution.
	SupervisorCPUMS float64 `json:"supervisor_cpu_ms"`
	// IsolationCost is supervised p50 / in-process p50, and in-process
	// throughput / supervised throughput.
	LatencyRatio    float64 `json:"latency_ratio"`
	ThroughputRatio float64 `json:"throughput_ratio"`
	// Startup is where child start-up went, phase by phase (medians).
	Startup []supervisor.PhaseStat `json:"startup"`
}

type runStat struct {
	P50MS      float64 `json:"p50_ms"`
	P90MS      float64 `json:"p90_ms"`
	P99MS      float64 `json:"p99_ms"`
	Throughput float64 `json:"per_second"`
}

func cmdBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warden bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden bench [flags] [FILE.js]   (default script: return input.a + input.b)")
		fs.PrintDefaults()
	}
	input := fs.String("input", `{"a":1,"b":2}`, "input JSON")
	n := fs.Int("n", 200, "number of executions")
	conc := fs.Int("c", 2, "concurrent callers")
	poolSize := fs.Int("pool", 0, "idle children per profile (default: the concurrency)")
	spawnConc := fs.Int("spawn", 0, "children starting at once (default: the concurrency)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	rate := fs.Float64("rate", 0, "start at most this many executions per second (0: as fast as possible); a low rate measures a warm pool")
	skipInProcess := fs.Bool("no-in-process", false, "skip the in-process comparison")
	cacheDir := fs.String("cache-dir", defaultCacheDir(), "wazero compilation cache directory of the supervisor (the in-process engine uses DIR-in-process)")
	noCgroups := fs.Bool("no-cgroups", false, "switch the cgroup layer off (RLIMIT_DATA fallback)")
	noNS := fs.Bool("no-namespaces", false, "switch the child's namespaces off")
	noSeccomp := fs.Bool("no-seccomp", false, "switch the child's seccomp filter off")
	noRlimits := fs.Bool("no-rlimits", false, "switch the child's rlimits off")
	keepWarm := fs.Duration("keep-warm", 0, "how often idle children re-read their memory (supervisor.Config.KeepWarm; 0: its default, 1s; negative: off)")
	reapedUsage := fs.Bool("reaped-usage", false, "wait for each child's reap and report the kernel's CPU and RSS figures (supervisor.Config.ReapedUsage)")
	cpuProfile := fs.String("cpuprofile", "", "write the supervisor's CPU profile of the supervised run to this file (go tool pprof)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	code, script := "return input.a + input.b", "return input.a + input.b"
	if fs.NArg() == 1 {
		b, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return exitUsage
		}
		code, script = string(b), fs.Arg(0)
	}
	if *n < 1 || *conc < 1 || !json.Valid([]byte(*input)) {
		fmt.Fprintln(stderr, "warden bench: -n and -c must be positive and --input valid JSON")
		return exitUsage
	}
	if *poolSize == 0 {
		*poolSize = *conc
	}
	if *spawnConc == 0 {
		*spawnConc = *conc
	}
	req := contract.Request{Code: code, Input: json.RawMessage(*input)}
	ctx := context.Background()
	rep := benchReport{Script: script, Executions: *n, Concurrency: *conc, PoolSize: *poolSize}

	cg := supervisor.CgroupsAuto
	if *noCgroups {
		cg = supervisor.CgroupsOff
	}
	sup, err := supervisor.New(supervisor.Config{
		CacheDir: *cacheDir, PoolSize: *poolSize, SpawnConcurrency: *spawnConc, QueueTimeout: time.Minute,
		Cgroups: cg, NoNamespaces: *noNS, NoSeccomp: *noSeccomp, NoRlimits: *noRlimits, ReapedUsage: *reapedUsage, KeepWarm: *keepWarm,
		Logger: warnLogger(stderr),
	})
	if err != nil {
		fmt.Fprintf(stderr, "warden bench: %v\n", err)
		return exitUsage
	}
	// Warm up: let the pool fill and the cache settle.
	for i := 0; i < *poolSize; i++ {
		sup.Execute(ctx, req, nil)
	}
	time.Sleep(time.Duration(*poolSize) * 100 * time.Millisecond)

	var mu sync.Mutex
	var childCPU float64
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return exitUsage
		}
	}
	cpu0 := selfCPU()
	var pace <-chan time.Time
	if *rate > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / *rate))
		defer t.Stop()
		pace = t.C
	}
	rep.Rate = *rate
	rep.Supervised, rep.Failures = measure(*n, *conc, pace, func() bool {
		res, err := sup.Execute(ctx, req, nil)
		mu.Lock()
		childCPU += res.Stats.ChildCPUMS
		mu.Unlock()
		return err == nil
	})
	rep.SupervisorCPUMS = contract.Millis(selfCPU()-cpu0) / float64(*n)
	if *cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	rep.ChildCPUMS = childCPU / float64(*n)
	sst := sup.Stats()
	st := sst.Pool
	rep.Startup = sst.Startup
	rep.SpawnP50MS, rep.SpawnP90MS = contract.Millis(st.SpawnLatencyP50), contract.Millis(st.SpawnLatencyP90)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	sup.Close(cctx)
	cancel()

	if !*skipInProcess {
		eng, err := engine.New(ctx, engine.Config{CacheDir: inProcessCacheDir(*cacheDir), CloseOnContextDone: true})
		if err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return exitUsage
		}
		rep.InProcess, _ = measure(*n, *conc, nil, func() bool {
			return eng.Execute(ctx, req, engine.RunOptions{}).OK
		})
		eng.Close(ctx)
		if rep.InProcess.P50MS > 0 && rep.Supervised.Throughput > 0 {
			rep.LatencyRatio = rep.Supervised.P50MS / rep.InProcess.P50MS
			rep.ThroughputRatio = rep.InProcess.Throughput / rep.Supervised.Throughput
		}
	}

	if *asJSON {
		writeJSON(stdout, rep)
	} else {
		printBench(stdout, rep, !*skipInProcess)
	}
	if rep.Failures > 0 {
		return exitFailed
	}
	return exitOK
}

// measure runs f n times from conc goroutines, each run waiting for a
// tick of pace first when pace is set, and returns latency percentiles,
// throughput, and how many runs failed.
func measure(n, conc int, pace <-chan time.Time, f func() bool) (runStat, int) {
	lat := make([]time.Duration, n)
	var failures int
	var mu sync.Mutex
	next := make(chan int, n)
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if pace != nil {
					<-pace
				}
				t := time.Now()
				ok := f()
				lat[i] = time.Since(t)
				if !ok {
					mu.Lock()
					failures++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	slices.Sort(lat)
	pct := func(p float64) float64 { return contract.Millis(lat[min(n-1, int(float64(n)*p))]) }
	return runStat{P50MS: pct(0.50), P90MS: pct(0.90), P99MS: pct(0.99), Throughput: float64(n) / total.Seconds()}, failures
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func printBench(w io.Writer, r benchReport, inProcess bool) {
	fmt.Fprintf(w, "script %q: %d executions, concurrency %d, pool %d, failures %d", r.Script, r.Executions, r.Concurrency, r.PoolSize, r.Failures)
	if r.Rate > 0 {
		fmt.Fprintf(w, ", paced at %.0f/s (the in-process row is not paced)", r.Rate)
	}
	fmt.Fprint(w, "\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "mode\tp50 ms\tp90 ms\tp99 ms\texec/s\t")
	row := func(name string, s runStat) {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.1f\t\n", name, s.P50MS, s.P90MS, s.P99MS, s.Throughput)
	}
	row("child process", r.Supervised)
	if inProcess {
		row("in-process engine", r.InProcess)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nchild spawn-to-ready: p50 %.1f ms, p90 %.1f ms\n", r.SpawnP50MS, r.SpawnP90MS)
	fmt.Fprintf(w, "CPU per execution: child %.1f ms (start-up included), supervisor %.1f ms\n", r.ChildCPUMS, r.SupervisorCPUMS)
	printStartup(w, r.Startup)
	if inProcess {
		fmt.Fprintf(w, "cost of process isolation: p50 x%.1f, throughput x%.1f lower\n", r.LatencyRatio, r.ThroughputRatio)
	}
}

// printStartup prints where child start-up went: the child's own phases
// (wall, CPU, page faults) and the supervisor's view of spawn (wall).
func printStartup(w io.Writer, phases []supervisor.PhaseStat) {
	if len(phases) == 0 {
		return
	}
	fmt.Fprintf(w, "\nchild start-up, medians over %d children:\n", phases[0].Samples)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "side\tphase\twall ms\tCPU ms\tpage faults")
	var wall, cpu, faults float64
	for _, p := range phases {
		if p.Side == "child" {
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.0f\n", p.Side, p.Name, p.WallMS, p.CPUMS, p.PageFaults)
			wall, cpu, faults = wall+p.WallMS, cpu+p.CPUMS, faults+p.PageFaults
		}
	}
	fmt.Fprintf(tw, "child\t(sum of medians)\t%.1f\t%.1f\t%.0f\n", wall, cpu, faults)
	for _, p := range phases {
		if p.Side != "child" {
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t-\t-\n", p.Side, p.Name, p.WallMS)
		}
	}
	tw.Flush()
}

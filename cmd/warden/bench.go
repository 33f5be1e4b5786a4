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
	// Execution is where an execution's time went once it had a request
	// (supervisor.Stats.Execution, medians).
	Execution []supervisor.PhaseStat `json:"execution"`
	// IdleMemory is what the pool's idle children held before the
	// measured run (bench_memory.go).
	IdleMemory *idleMemory `json:"idle_child_memory,omitempty"`
	// Reference is the same script through `node -e`, one process per
	// execution (bench_reference.go); ReferenceNote says why it is
	// missing. ReferenceRatio is Warden's supervised throughput over
	// the reference's.
	Reference      *referenceReport `json:"reference,omitempty"`
	ReferenceNote  string           `json:"reference_note,omitempty"`
	ReferenceRatio float64          `json:"throughput_vs_reference,omitempty"`
}

type runStat struct {
	P50MS      float64 `json:"p50_ms"`
	P90MS      float64 `json:"p90_ms"`
	P99MS      float64 `json:"p99_ms"`
	Throughput float64 `json:"per_second"`
}

// benchOptions are `warden bench`'s flags and script.
type benchOptions struct {
	input                                 string
	n, conc, poolSize, spawnConc          int
	asJSON, skipInProcess, skipReference  bool
	rate                                  float64
	wasmFile                              *string
	cacheDir                              string
	noCgroups, noNS, noSeccomp, noRlimits bool
	keepWarm                              time.Duration
	reapedUsage                           bool
	cpuProfile                            string
	code, script                          string
	modulesDir                            string
}

// cmdBench parses its flags, measures the supervised run, then the
// in-process one, and prints the report.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	o, exit, ok := parseBenchFlags(args, stderr)
	if !ok {
		return exit
	}
	req := contract.Request{Code: o.code, Input: json.RawMessage(o.input)}
	req.Language, req.Format = languageAndFormat(o.script, "", "")
	ctx := context.Background()
	rep := benchReport{Script: o.script, Executions: o.n, Concurrency: o.conc, PoolSize: o.poolSize}
	if err := benchSupervised(ctx, o, req, &rep, stderr); err != nil {
		fmt.Fprintf(stderr, "warden bench: %v\n", err)
		return exitUsage
	}
	if !o.skipInProcess {
		if err := benchInProcess(ctx, o, req, &rep); err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return exitUsage
		}
	}
	switch {
	case o.skipReference:
		rep.ReferenceNote = "no reference: --no-reference"
	case req.IsTypeScript() || req.Format == contract.FormatModule || o.modulesDir != "":
		rep.ReferenceNote = "no reference: `node -e` runs neither TypeScript, nor a module, nor registered modules"
	default:
		benchReference(ctx, o, &rep)
	}
	if o.asJSON {
		writeJSON(stdout, rep)
	} else {
		printBench(stdout, rep, !o.skipInProcess)
	}
	if rep.Failures > 0 {
		return exitFailed
	}
	return exitOK
}

// parseBenchFlags parses the flags and reads the script. ok is false
// when the command ends here, with exit.
func parseBenchFlags(args []string, stderr io.Writer) (o benchOptions, exit int, ok bool) {
	fs := flag.NewFlagSet("warden bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: warden bench [flags] [FILE.js]   (default script: return input.a + input.b)")
		fs.PrintDefaults()
	}
	fs.StringVar(&o.input, "input", `{"a":1,"b":2}`, "input JSON")
	fs.IntVar(&o.n, "n", 200, "number of executions")
	fs.IntVar(&o.conc, "c", 2, "concurrent callers")
	fs.IntVar(&o.poolSize, "pool", 0, "idle children per profile (default: the concurrency)")
	fs.IntVar(&o.spawnConc, "spawn", 0, "children starting at once (default: the concurrency)")
	fs.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	fs.Float64Var(&o.rate, "rate", 0, "start at most this many executions per second (0: as fast as possible); a low rate measures a warm pool")
	fs.BoolVar(&o.skipInProcess, "no-in-process", false, "skip the in-process comparison")
	fs.BoolVar(&o.skipReference, "no-reference", false, "skip the reference run: the same script through a `node -e` process per execution")
	fs.StringVar(&o.cacheDir, "cache-dir", defaultCacheDir(), "wazero compilation cache directory of the supervisor (the in-process engine uses DIR-in-process)")
	o.wasmFile = wasmFlag(fs)
	fs.BoolVar(&o.noCgroups, "no-cgroups", false, "switch the cgroup layer off (RLIMIT_DATA fallback)")
	fs.BoolVar(&o.noNS, "no-namespaces", false, "switch the child's namespaces off")
	fs.BoolVar(&o.noSeccomp, "no-seccomp", false, "switch the child's seccomp filter off")
	fs.BoolVar(&o.noRlimits, "no-rlimits", false, "switch the child's rlimits off")
	fs.DurationVar(&o.keepWarm, "keep-warm", 0, "how often idle children re-read their memory (supervisor.Config.KeepWarm; 0: its default, 1s; negative: off)")
	fs.BoolVar(&o.reapedUsage, "reaped-usage", false, "wait for each child's reap and report the kernel's CPU and RSS figures (supervisor.Config.ReapedUsage)")
	fs.StringVar(&o.modulesDir, "modules", "", "a directory of host-approved modules to register (as warden run --modules)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the supervisor's CPU profile of the supervised run to this file (go tool pprof)")
	singleValued(fs)
	files, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, exitOK, false
		}
		return o, exitUsage, false
	}
	o.code, o.script = "return input.a + input.b", "return input.a + input.b"
	if len(files) > 1 {
		fmt.Fprintln(stderr, "warden bench: want at most one script file")
		return o, exitUsage, false
	}
	if len(files) == 1 {
		b, err := readFileCapped("the script", files[0], maxCodeFileBytes)
		if err != nil {
			fmt.Fprintf(stderr, "warden bench: %v\n", err)
			return o, exitUsage, false
		}
		o.code, o.script = string(b), files[0]
	}
	if o.n < 1 || o.conc < 1 || !json.Valid([]byte(o.input)) {
		fmt.Fprintln(stderr, "warden bench: -n and -c must be positive and --input valid JSON")
		return o, exitUsage, false
	}
	if o.poolSize == 0 {
		o.poolSize = o.conc
	}
	if o.spawnConc == 0 {
		o.spawnConc = o.conc
	}
	return o, exitOK, true
}

// benchSupervised starts a supervisor, warms it up and measures req
// through it into rep, with the supervisor's CPU profile if asked.
func benchSupervised(ctx context.Context, o benchOptions, req contract.Request, rep *benchReport, stderr io.Writer) error {
	sup, err := startBenchSupervisor(o, stderr)
	if err != nil {
		return err
	}
	warmUp(ctx, sup, req, o.poolSize)
	idle := measureIdleMemory()
	rep.IdleMemory = &idle
	stopProfile, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	measureSupervised(ctx, sup, o, req, rep)
	stopProfile()
	reportSpawns(sup, rep)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	sup.Close(cctx)
	cancel()
	return nil
}

// warmUp lets the pool fill and the cache settle.
func warmUp(ctx context.Context, sup *supervisor.Supervisor, req contract.Request, poolSize int) {
	for i := 0; i < poolSize; i++ {
		sup.Execute(ctx, req, nil)
	}
	time.Sleep(time.Duration(poolSize) * 100 * time.Millisecond)
}

// measureSupervised runs req o.n times through sup, paced at o.rate if
// set, and puts latency, failures and CPU per execution into rep.
func measureSupervised(ctx context.Context, sup *supervisor.Supervisor, o benchOptions, req contract.Request, rep *benchReport) {
	var mu sync.Mutex
	var childCPU float64
	cpu0 := selfCPU()
	var pace <-chan time.Time
	if o.rate > 0 {
		t := time.NewTicker(time.Duration(float64(time.Second) / o.rate))
		defer t.Stop()
		pace = t.C
	}
	rep.Rate = o.rate
	rep.Supervised, rep.Failures = measure(o.n, o.conc, pace, func() bool {
		res, err := sup.Execute(ctx, req, nil)
		mu.Lock()
		childCPU += res.Stats.ChildCPUMS
		mu.Unlock()
		return err == nil
	})
	rep.SupervisorCPUMS = contract.Millis(selfCPU()-cpu0) / float64(o.n)
	rep.ChildCPUMS = childCPU / float64(o.n)
}

// reportSpawns puts what the pool saw of child start-up into rep.
func reportSpawns(sup *supervisor.Supervisor, rep *benchReport) {
	sst := sup.Stats()
	st := sst.Pool
	rep.Startup, rep.Execution = sst.Startup, sst.Execution
	rep.SpawnP50MS, rep.SpawnP90MS = contract.Millis(st.SpawnLatencyP50), contract.Millis(st.SpawnLatencyP90)
}

// startBenchSupervisor starts the supervisor with the layers the flags
// leave on.
func startBenchSupervisor(o benchOptions, stderr io.Writer) (*supervisor.Supervisor, error) {
	cg := supervisor.CgroupsAuto
	if o.noCgroups {
		cg = supervisor.CgroupsOff
	}
	return supervisor.New(supervisor.Config{
		CacheDir: o.cacheDir, WasmFile: *o.wasmFile, PoolSize: o.poolSize, SpawnConcurrency: o.spawnConc, QueueTimeout: time.Minute,
		Cgroups: cg, NoNamespaces: o.noNS, NoSeccomp: o.noSeccomp, NoRlimits: o.noRlimits, ReapedUsage: o.reapedUsage, KeepWarm: o.keepWarm,
		ModulesDir: o.modulesDir,
		Logger:     warnLogger(stderr),
	})
}

// startCPUProfile starts profiling this process's CPU into path, if
// set; stop ends the profile and closes its file.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// benchInProcess measures req in an in-process engine (no pacing) into
// rep, and the cost of process isolation against the supervised run.
func benchInProcess(ctx context.Context, o benchOptions, req contract.Request, rep *benchReport) error {
	reg, err := inProcessRegistry(o.modulesDir)
	if err != nil {
		return err
	}
	wasm, pack := inProcessFiles(o.cacheDir, *o.wasmFile)
	eng, err := engine.New(ctx, engine.Config{CacheDir: inProcessCacheDir(o.cacheDir), CloseOnContextDone: true, Registry: reg, WasmFile: wasm, IntlPack: pack})
	if err != nil {
		return err
	}
	rep.InProcess, _ = measure(o.n, o.conc, nil, func() bool {
		return eng.Execute(ctx, req, engine.RunOptions{}).OK
	})
	eng.Close(ctx)
	if rep.InProcess.P50MS > 0 && rep.Supervised.Throughput > 0 {
		rep.LatencyRatio = rep.Supervised.P50MS / rep.InProcess.P50MS
		rep.ThroughputRatio = rep.InProcess.Throughput / rep.Supervised.Throughput
	}
	return nil
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
	if r.Reference != nil {
		row("node -e per execution", r.Reference.runStat)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nchild spawn-to-ready: p50 %.1f ms, p90 %.1f ms\n", r.SpawnP50MS, r.SpawnP90MS)
	fmt.Fprintf(w, "CPU per execution: child %.1f ms (start-up included), supervisor %.1f ms\n", r.ChildCPUMS, r.SupervisorCPUMS)
	printStartup(w, r.Startup)
	printExecution(w, r.Execution, r.Rate > 0)
	printIdleMemory(w, r.IdleMemory)
	if inProcess {
		fmt.Fprintf(w, "cost of process isolation: p50 x%.1f, throughput x%.1f lower\n", r.LatencyRatio, r.ThroughputRatio)
	}
	printReference(w, r)
}

// printExecution prints where an execution's time went, phase by phase.
// Unpaced, the dispatch includes waiting for a child to start.
func printExecution(w io.Writer, phases []supervisor.PhaseStat, paced bool) {
	if len(phases) == 0 {
		return
	}
	note := " (unpaced: the dispatch includes waiting for a child to start; -rate measures warm children)"
	if paced {
		note = " (paced: children wait warm)"
	}
	fmt.Fprintf(w, "\nan execution, medians over %d%s:\n", phases[0].Samples, note)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "side\tphase\twall ms")
	for _, p := range phases {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\n", p.Side, p.Name, p.WallMS)
	}
	tw.Flush()
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

// Package stress runs Warden's attack corpus mixed with benign traffic
// through a real supervisor at a set concurrency, injects faults, checks
// every outcome against its expectation and audits the supervisor's
// process for what was left behind. `warden stress` is its command.
package stress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/attacks"
	"github.com/wardenhq/warden/supervisor"
)

// Config is one stress run.
type Config struct {
	// Supervisor is the supervisor's configuration; the runner adds the
	// victim profiles to MemoryBuckets and PrewarmMemory and raises
	// MaxChildren to room for them.
	Supervisor supervisor.Config
	// Scripts is the attack corpus (attacks.Corpus).
	Scripts []attacks.Script
	// N is the number of executions of the mixed run; Duration bounds it
	// in time instead. Neither: enough executions for every attack to
	// run once at AttackShare.
	N        int
	Duration time.Duration
	// Concurrency is the number of executions in flight. Default 2.
	Concurrency int
	// AttackShare is the share of the mixed run's executions that are
	// attacks (the rest benign, less fault victims). Default 0.3.
	AttackShare float64
	// Faults names the faults to inject (Faults), at FaultRate: the
	// share of executions that are a fault instead.
	Faults    []string
	FaultRate float64
	// Baseline is the number of benign executions run alone before the
	// mixed run, for the latency baseline. Default: N/10 within [40, 400].
	Baseline int
	// MaxSlowdown is the most benign p50 latency during the mixed run
	// may be over its baseline. Default DefaultMaxSlowdown.
	MaxSlowdown float64
	// TempDirs are the directories the supervisor makes socket
	// directories in, audited for leftovers.
	TempDirs []string
	// Seed seeds the mix and the faults' random choices.
	Seed uint64
	// SampleEvery is the audit's sampling period. Default 500ms.
	SampleEvery time.Duration
	// Progress, when set, is called about once a second.
	Progress func(Progress)
	// Remote, when set, runs every execution through it (a daemon's
	// client) instead of a supervisor the runner starts: Supervisor and
	// TempDirs are then unused, only RemoteFaults may be injected, and
	// the audit is of this process plus the daemon's children as
	// RemoteChildren reads them.
	Remote Executor
	// RemoteChildren, with Remote, reads the daemon's children by state
	// (its /metrics): DaemonChildren.
	RemoteChildren func(context.Context) (map[string]int, error)
	// HeapProfile, when set, receives a heap profile of this process
	// (pprof format, after a GC) taken when the mixed run ends and before
	// the supervisor closes: what a soak's RSS is made of.
	HeapProfile io.Writer
}

// Executor runs one execution and returns its envelope (the error is
// the envelope's, or a set-up or transport failure). The embedded
// *supervisor.Supervisor and a daemon's *client.Client both are one;
// with a data handler, the client streams and answers the script's
// data requests from this process.
type Executor interface {
	Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error)
}

// DefaultMaxSlowdown is Config.MaxSlowdown's default. Attacks that burn
// CPU to their deadline share the machine's cores with benign
// executions, and a child's start-up is the throughput bound, so benign
// latency does rise under attack; this is the factor past which the
// report calls it a failure.
const DefaultMaxSlowdown = 5

// Progress is the run's state, for a progress line.
type Progress struct {
	Phase      string
	Executions int
	Failures   int
	Elapsed    time.Duration
	Rate       float64
}

// ConfigError is a Config the runner refuses.
type ConfigError struct{ Msg string }

func (e *ConfigError) Error() string { return "stress: " + e.Msg }

// Run runs the baseline, then the mixed run, closes the supervisor and
// audits. Its error is a set-up failure; what the run found is in the
// report (Report.OK).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := resolve(&cfg); err != nil {
		return nil, err
	}
	start := time.Now()
	before := takeSnapshot(start, cfg.TempDirs)
	r := &runner{cfg: cfg, start: start, rng: rand.New(rand.NewPCG(cfg.Seed, 1))}
	r.faults = &faultEnv{rng: rand.New(rand.NewPCG(cfg.Seed, 2))}
	var sup *supervisor.Supervisor
	if cfg.Remote != nil {
		r.exec = cfg.Remote
		r.faults.ex = cfg.Remote
	} else {
		scfg := cfg.Supervisor
		addVictimProfiles(&scfg)
		var err error
		if sup, err = supervisor.New(scfg); err != nil {
			return nil, fmt.Errorf("stress: start the supervisor: %w", err)
		}
		r.exec, r.faults.ex, r.faults.sup = sup, sup, sup
		r.faults.overhead, r.faults.noSeccomp = scfg.MemoryOverheadBytes, !sup.Layers().Seccomp
		if r.faults.overhead == 0 {
			r.faults.overhead = supervisor.DefaultMemoryOverhead
		}
	}
	rep := &Report{Before: before, Concurrency: cfg.Concurrency, MaxSlowdown: cfg.MaxSlowdown, Seed: cfg.Seed}
	var daemonBefore map[string]int
	if cfg.Remote != nil {
		rep.Server = true
		daemonBefore = r.daemonChildren(ctx, rep)
	}
	stopSampling := r.sample(rep)

	// The first executions also wait for the pool's first children:
	// they warm up, and are not part of the baseline's latency.
	warm := 2 * cfg.Concurrency
	r.tally = newTally(warm)
	baseStart := time.Now()
	r.runPhase(ctx, "baseline", warm+cfg.Baseline, 0, func(i int) job { return job{kind: "benign", script: r.benign[i%len(r.benign)]} })
	rep.BaselineRate = float64(r.tally.baselineN) / time.Since(baseStart).Seconds()
	if sup != nil {
		r.faults.why = r.canSeeChildren()
	}
	mixStart := time.Now()
	r.runPhase(ctx, "mixed", cfg.N, cfg.Duration, r.next)
	mixElapsed := time.Since(mixStart)
	if cfg.HeapProfile != nil {
		runtime.GC()
		if err := pprof.Lookup("heap").WriteTo(cfg.HeapProfile, 0); err != nil {
			rep.Leaks = append(rep.Leaks, "heap profile: "+err.Error())
		}
	}

	var closeErr error
	if sup != nil {
		closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		closeErr = sup.Close(closeCtx)
		cancel()
	} else if c, ok := cfg.Remote.(interface{ CloseIdleConnections() }); ok {
		// Kept-alive connections to the daemon are this process's
		// sockets and goroutines until closed: not a leak.
		c.CloseIdleConnections()
	}
	stopSampling()
	rep.After, rep.Leaks = settle(start, before, cfg.TempDirs, 10*time.Second)
	if closeErr != nil {
		rep.Leaks = append(rep.Leaks, "supervisor Close: "+closeErr.Error())
	}
	if cfg.Remote != nil {
		rep.Leaks = append(rep.Leaks, r.settleDaemon(ctx, rep, daemonBefore)...)
	}
	rep.build(r.tally, mixElapsed)
	return rep, nil
}

// resolve fills defaults and refuses what cannot run.
func resolve(cfg *Config) error {
	switch {
	case len(cfg.Scripts) == 0:
		return &ConfigError{"no attack scripts"}
	case cfg.N < 0 || cfg.Duration < 0 || cfg.Concurrency < 0 || cfg.Baseline < 0:
		return &ConfigError{"negative count, duration or concurrency"}
	case cfg.AttackShare < 0 || cfg.FaultRate < 0 || cfg.AttackShare+cfg.FaultRate > 1:
		return &ConfigError{fmt.Sprintf("attack share %v and fault rate %v must be shares that add up to at most 1", cfg.AttackShare, cfg.FaultRate)}
	}
	for _, f := range cfg.Faults {
		if !slices.Contains(Faults, f) {
			return &ConfigError{fmt.Sprintf("unknown fault %q (known: %v)", f, Faults)}
		}
		if cfg.Remote != nil && !slices.Contains(RemoteFaults, f) {
			return &RemoteFaultError{Fault: f}
		}
	}
	if len(cfg.Faults) > 0 && cfg.FaultRate == 0 {
		cfg.FaultRate = 0.05
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 2
	}
	if cfg.AttackShare == 0 {
		cfg.AttackShare = 0.3
	}
	if cfg.N == 0 && cfg.Duration == 0 {
		cfg.N = int(float64(len(cfg.Scripts))/cfg.AttackShare + 0.5)
	}
	if cfg.Baseline == 0 {
		cfg.Baseline = min(max(cfg.N/10, 40), 400)
	}
	if cfg.MaxSlowdown == 0 {
		cfg.MaxSlowdown = DefaultMaxSlowdown
	}
	if cfg.SampleEvery == 0 {
		cfg.SampleEvery = 500 * time.Millisecond
	}
	// A script whose memory limit falls in a victim's bucket would share
	// its children and confuse the faults' search for the victim.
	for _, s := range cfg.Scripts {
		for _, st := range s.Steps {
			if m := st.Request.Limits.MemoryBytes; m > 4<<20 && m <= idleMemory {
				return &ConfigError{fmt.Sprintf("%s: memory limit %d falls in the fault victims' profiles (4 MiB, %d]", s.Name, m, idleMemory)}
			}
		}
	}
	return nil
}

// addVictimProfiles adds the victims' memory buckets (to the default
// powers of two when none are set), keeps the idle victim profile warm
// and makes room for both.
func addVictimProfiles(c *supervisor.Config) {
	if len(c.MemoryBuckets) == 0 {
		capv := c.Caps.MemoryBytes
		if capv == 0 {
			capv = contract.DefaultCaps.MemoryBytes
		}
		for m := int64(contract.MinMemoryBytes); m < capv; m *= 2 {
			c.MemoryBuckets = append(c.MemoryBuckets, m)
		}
	}
	c.MemoryBuckets = append(c.MemoryBuckets, busyMemory, idleMemory)
	c.PrewarmMemory = append(c.PrewarmMemory, idleMemory)
	if c.MaxChildren == 0 {
		c.MaxChildren = 16
	}
}

type job struct {
	kind   string
	script *attacks.Script
	fault  string
}

type runner struct {
	cfg    Config
	exec   Executor
	start  time.Time
	phase  atomic.Pointer[string]
	faults *faultEnv
	benign []*attacks.Script

	mu      sync.Mutex
	rng     *rand.Rand
	order   []int // shuffled attack order, consumed from the front
	nBenign int
	nFault  int

	tally *tally

	done, failed atomic.Int64
}

// next picks the mixed run's i-th job.
func (r *runner) next(int) job {
	r.mu.Lock()
	defer r.mu.Unlock()
	x := r.rng.Float64()
	switch {
	case len(r.cfg.Faults) > 0 && x < r.cfg.FaultRate:
		f := r.cfg.Faults[r.nFault%len(r.cfg.Faults)]
		r.nFault++
		return job{kind: "fault", fault: f}
	case x < r.cfg.FaultRate+r.cfg.AttackShare:
		if len(r.order) == 0 {
			r.order = r.rng.Perm(len(r.cfg.Scripts))
		}
		i := r.order[0]
		r.order = r.order[1:]
		return job{kind: "attack", script: &r.cfg.Scripts[i]}
	}
	r.nBenign++
	return job{kind: "benign", script: r.benign[r.nBenign%len(r.benign)]}
}

// runPhase runs n jobs (or until d has passed) from pick at the set
// concurrency, adding each to the tally as phase.
func (r *runner) runPhase(ctx context.Context, phase string, n int, d time.Duration, pick func(int) job) {
	r.phase.Store(&phase)
	if r.benign == nil {
		r.benign = Benign()
	}
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
		if n == 0 {
			n = int(^uint(0) >> 1)
		}
	}
	var (
		next atomic.Int64
		wg   sync.WaitGroup
	)
	exec := func(ctx context.Context, req contract.Request, h contract.DataHandler) contract.Result {
		return execute(ctx, r.exec, req, h)
	}
	for range r.cfg.Concurrency {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n || (!deadline.IsZero() && time.Now().After(deadline)) {
					return
				}
				j := pick(i)
				var rep attacks.Report
				if j.kind == "fault" {
					rep = r.faults.inject(ctx, j.fault)
				} else {
					rep = j.script.Run(ctx, exec, nil)
				}
				r.done.Add(1)
				if rep.Err != nil && !isSkipped(rep.Err) && (rep.Script == nil || rep.Script.Known == "") {
					r.failed.Add(1)
				}
				r.tally.add(phase, j.kind, rep, time.Since(r.start))
			}
		})
	}
	wg.Wait()
}

// execute runs req on ex. A failure that carries no envelope (a
// daemon's refusal, the network) becomes one, so the report says what it
// was instead of showing an empty envelope.
func execute(ctx context.Context, ex Executor, req contract.Request, h contract.DataHandler) contract.Result {
	res, err := ex.Execute(ctx, req, h)
	if err != nil && res.Error == nil {
		return contract.Fail(err, req.Limits)
	}
	return res
}

// keepEnvelope is what the report keeps of an execution's envelope:
// nothing when it passed, and a failed one cut to a few KiB, so that a
// long run's records do not grow this process (whose RSS the audit
// watches) with values and logs no one reads.
func keepEnvelope(rep attacks.Report) contract.Result {
	if rep.Err == nil {
		return contract.Result{}
	}
	res := rep.Result
	if len(res.Value) > 4096 {
		res.Value, _ = json.Marshal("(cut) " + strings.ToValidUTF8(string(res.Value[:4096]), ""))
	}
	if len(res.Logs) > 5 {
		res.Logs = res.Logs[:5]
	}
	for i := range res.Logs {
		if len(res.Logs[i].Text) > 1024 {
			res.Logs[i].Text = strings.ToValidUTF8(res.Logs[i].Text[:1024], "") + " (cut)"
		}
	}
	if res.Error != nil && len(res.Error.Stack) > 4096 {
		e := *res.Error
		e.Stack = strings.ToValidUTF8(e.Stack[:4096], "") + " (cut)"
		res.Error = &e
	}
	return res
}

func isSkipped(err error) bool {
	var s skipped
	return errors.As(err, &s)
}

// canSeeChildren says why the faults that look for a victim's child
// cannot run here, or "" when they can.
func (r *runner) canSeeChildren() string {
	if len(r.faults.profileChildren(idleMemory)) > 0 {
		return ""
	}
	// The idle victim profile is kept warm: give it a moment.
	time.Sleep(2 * time.Second)
	if len(r.faults.profileChildren(idleMemory)) > 0 {
		return ""
	}
	return "cannot read the children's environment in /proc (not root?) to find a victim"
}

// sample takes an audit snapshot every SampleEvery and reports progress
// about once a second, until the returned function is called.
func (r *runner) sample(rep *Report) func() {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(r.cfg.SampleEvery)
		defer t.Stop()
		lastProgress := time.Now()
		every := 1 // readings per kept sample (keepSample doubles it)
		for reading := 0; ; reading++ {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			s := takeSnapshot(r.start, r.cfg.TempDirs)
			smp := Sample{At: s.At, RSSBytes: s.RSSBytes, HeapBytes: s.HeapBytes, Goroutines: s.Goroutines, FDs: s.FDCount(), Processes: len(s.Processes), Cgroups: len(s.Cgroups),
				Executions: int(r.done.Load())}
			rep.mu.Lock()
			peakOf(&rep.Peak, smp)
			if reading%every == 0 {
				rep.Samples = keepSample(rep.Samples, smp, &every)
			}
			rep.mu.Unlock()
			if r.cfg.Progress != nil && time.Since(lastProgress) >= time.Second {
				lastProgress = time.Now()
				el := time.Since(r.start)
				n := int(r.done.Load())
				phase := ""
				if p := r.phase.Load(); p != nil {
					phase = *p
				}
				r.cfg.Progress(Progress{Phase: phase, Executions: n, Failures: int(r.failed.Load()), Elapsed: el, Rate: float64(n) / el.Seconds()})
			}
		}
	})
	return func() { close(stop); wg.Wait() }
}

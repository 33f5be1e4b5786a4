// Package supervisor is Warden's public Go API: it runs each execution in
// a fresh, prespawned child process and returns the envelope.
//
// New starts a pool of children, each already holding an initialised
// QuickJS instance. Execute (or Stream, which also delivers events as
// they happen) takes one child, sends it the request over the ipc wire,
// answers its data requests through the caller's handler, and discards
// the child: a child is never reused. Timeouts come in three layers: the
// engine's own deadline inside the child, the supervisor's deadline on
// the stream, and a SIGKILL of the child's process group at the deadline
// plus a grace. Whatever one execution does, the supervisor keeps
// serving.
//
// The package imports only the standard library and Warden's own
// packages.
package supervisor

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
	"github.com/wardenhq/warden/pool"
)

// Supervisor runs executions in child processes. It is safe for
// concurrent use.
type Supervisor struct {
	cfg  Config
	log  *slog.Logger
	pool *pool.Pool[int64, *process]
	// buckets are the memory profiles, sorted (memoryBuckets).
	buckets []int64
	// wire is the largest message each way between the supervisor and a
	// child, derived from cfg.Caps and cfg.MaxInputBytes.
	wire ipc.WireCaps

	executions atomic.Uint64
	failures   atomic.Uint64
	kills      atomic.Uint64
	closed     atomic.Bool
	reaping    sync.WaitGroup
	cgroups    cgroupManager // nil: no cgroup layer
	cgroupNote string        // why the cgroup layer is missing
	userNote   string        // how children are made unprivileged, or why not
	uids       *uidRange     // nil: children keep the supervisor's user
	nsFlags    uintptr       // the namespaces children get
	nsNote     string        // which namespaces are missing, and why
	spawnSeq   atomic.Uint64
	startup    startupStats
	compile    *compileGate
}

// New validates cfg, resolves its defaults, sets up the cgroup layer and
// starts warming the pool for the default limits; it returns without
// waiting for a child.
//
// New takes no context because nothing it does waits on something a
// caller could usefully cancel. Its one wait is the cgroup layer's
// clean-up of groups a dead supervisor left, where each group's killed
// processes get at most 2s to die (milliseconds in practice). The compile
// child and every spawn run in the background, each bounded by
// StartTimeout, and Close ends them. A caller that wants a warm pool
// before serving watches Stats().Pool.Idle, or runs an execution.
func New(cfg Config) (*Supervisor, error) {
	if err := resolveChildCommand(&cfg); err != nil {
		return nil, err
	}
	uids, userNote, err := childUsers(&cfg)
	if err != nil {
		return nil, err
	}
	if err := resolveCacheDir(&cfg, uids); err != nil {
		return nil, err
	}
	if err := resolveDefaults(&cfg); err != nil {
		return nil, err
	}
	buckets, err := memoryBuckets(cfg)
	if err != nil {
		return nil, err
	}
	// Refused here, not as one execution's SandboxError: caps whose
	// largest message is more than gRPC carries.
	wire, err := ipc.DeriveWireCaps(cfg.Caps, cfg.MaxInputBytes)
	if err != nil {
		return nil, fmt.Errorf("supervisor: Config.Caps and MaxInputBytes: %w", err)
	}
	s := &Supervisor{cfg: cfg, log: cfg.Logger, userNote: userNote, uids: uids, compile: newCompileGate(), wire: wire}
	s.buckets = buckets
	s.startNamespaces()
	if err := s.startCgroups(); err != nil {
		return nil, err
	}
	if err := s.startPool(); err != nil {
		s.closeCgroups()
		return nil, err
	}
	return s, nil
}

// startPool starts the pool of children, which begins warming the
// profiles kept warm.
func (s *Supervisor) startPool() error {
	cfg := s.cfg
	p, err := pool.New(pool.Config[int64, *process]{
		Spawn:            s.spawn,
		Keys:             prewarmKeys(cfg, s.buckets),
		TargetIdle:       cfg.PoolSize,
		SpawnConcurrency: cfg.SpawnConcurrency,
		MaxChildren:      cfg.MaxChildren,
		IdleTTL:          cfg.ProfileIdleTTL,
		MaxAge:           cfg.MaxIdleAge,
		QueueTimeout:     cfg.QueueTimeout,
		Logger:           cfg.Logger.With("component", "pool"),
	})
	if err != nil {
		return fmt.Errorf("supervisor: %w", err)
	}
	s.pool = p
	return nil
}

// Execute runs req in a fresh child and returns its envelope. The error is
// the envelope's error (nil when it is ok), so errors.Is(err,
// contract.ErrTimeout) and friends work.
func (s *Supervisor) Execute(ctx context.Context, req contract.Request, handler contract.DataHandler) (contract.Result, error) {
	return s.Stream(ctx, req, handler, nil)
}

// Stream is Execute that also calls onEvent, on the calling goroutine, for
// every event as it happens: started, log, data_request and finally
// result.
func (s *Supervisor) Stream(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) (contract.Result, error) {
	res := s.run(ctx, req, handler, onEvent)
	if onEvent != nil {
		r := res
		onEvent(contract.Event{Type: contract.EventResult, ExecutionID: req.ID, Result: &r})
	}
	s.executions.Add(1)
	if !res.OK {
		s.failures.Add(1)
	}
	return res, res.Err()
}

// DefaultMaxInputBytes is Config.MaxInputBytes's default, 16 MiB: far
// above what a script's input is meant for (bulk data belongs in
// host.request answers, which the data limits bound), and small enough
// that the supervisor's copy and the child's decode stay cheap.
const DefaultMaxInputBytes = 16 << 20

// checkSize refuses, before a child is taken, a request larger than the
// wire to a child carries (ipc.DeriveWireCaps counts on these bounds):
// its input over MaxInputBytes, its id over contract.MaxIDBytes, its code
// and modules over its code limit (the engine's own check, made here so
// that such code never crosses the wire).
func (s *Supervisor) checkSize(req contract.Request) *contract.Error {
	if n := int64(len(req.Input)); n > s.cfg.MaxInputBytes {
		return contract.Errorf(contract.ContractError,
			"input is %d bytes, over the supervisor's cap of %d bytes (MaxInputBytes)", n, s.cfg.MaxInputBytes)
	}
	if err := contract.CheckID(req.ID); err != nil {
		return err
	}
	return contract.CheckCodeSize(req, req.Limits)
}

func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Supervisor) run(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) contract.Result {
	if req.ID == "" {
		req.ID = newID()
	}
	limits, clamped, err := contract.Resolve(req.Limits, s.cfg.Defaults, s.cfg.Caps)
	if err != nil {
		return contract.Fail(err, limits)
	}
	req.Limits = limits
	if err := s.checkSize(req); err != nil {
		res := contract.Fail(err, limits)
		res.Clamped = clamped
		return res
	}
	if err := req.Check(); err != nil {
		res := contract.Fail(err, limits)
		res.Clamped = clamped
		return res
	}
	if s.closed.Load() {
		res := contract.Fail(contract.Errorf(contract.CapacityError, "supervisor is closed"), limits)
		res.Clamped = clamped
		return res
	}

	queued := time.Now()
	for attempt := 1; ; attempt++ {
		res, retry := s.runOnce(ctx, req, handler, onEvent, queued)
		// A child that died while idle (killed from outside, say) can be
		// handed out before the pool notices. If it never started the
		// execution, nothing of it ran: take another child.
		if !retry || attempt == maxAttempts || ctx.Err() != nil {
			res.Clamped = clamped
			return res
		}
		s.log.Warn("child died before starting the execution; retrying on another", "attempt", attempt, "error", res.Error)
	}
}

// maxAttempts bounds the children one execution may try when they die
// before starting it.
const maxAttempts = 3

// runOnce takes one child and runs req on it. retry is true when the
// child failed before it started the execution.
func (s *Supervisor) runOnce(ctx context.Context, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event), queued time.Time) (res contract.Result, retry bool) {
	limits := req.Limits
	fail := func(err error) contract.Result { return contract.Fail(err, limits) }
	p, err := s.pool.Get(ctx, limitsKey(limits, s.buckets))
	wait := time.Since(queued)
	switch {
	case err == nil:
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		if errors.Is(err, context.Canceled) {
			return fail(contract.Errorf(contract.AbortError, "cancelled while waiting for a child")), false
		}
		return fail(contract.Errorf(contract.TimeoutError, "deadline passed while waiting for a child")), false
	case errors.Is(err, pool.ErrExhausted):
		st := s.pool.Stats()
		msg := fmt.Sprintf("no child became free within %v (%d busy, %d starting; %d of at most %d children alive)",
			wait.Round(time.Millisecond), st.Busy, st.Spawning, st.Live, st.MaxChildren)
		if st.LastSpawnError != "" {
			msg += "; last spawn error: " + st.LastSpawnError
		}
		return fail(contract.Errorf(contract.CapacityError, "%s", msg)), false
	default:
		return fail(contract.Errorf(contract.CapacityError, "%v", err)), false
	}
	res, reported, started := s.execOn(ctx, p, req, handler, onEvent)
	if p.group != nil {
		if peak, err := p.group.PeakBytes(); err == nil {
			res.Stats.CgroupPeakBytes = int64(peak)
		}
		if !reported && p.oomKills() > p.oomAtReady {
			res.OK, res.Value = false, nil
			res.Error = contract.ResourceErrorf(contract.KindOOMKill,
				"the child was OOM-killed by its cgroup (memory cap %d bytes)", p.cgroupCap)
		}
	}
	res.Stats.QueueWaitMS = contract.Millis(wait)
	res.Stats.ChildPID = p.proc.PID()
	p.killGroup()
	if reported {
		if s.cfg.ReapedUsage {
			// The caller wants the kernel's figures: wait for the reap
			// (not for the cgroup's removal).
			p.reap()
			p.reportKernelUsage(&res.Stats)
		}
		// The child reported with the result; removing it (several ms of
		// process teardown) happens off the caller's path.
		s.discardLater(p)
		return res, false
	}
	if res.Error != nil && res.Error.Type == contract.TimeoutError && !s.cfg.ReapedUsage {
		// Killed at its deadline: its exit tells nothing the envelope
		// lacks, and the reap (milliseconds of the kernel tearing the
		// process down) would only make the caller later past the
		// deadline.
		s.discardLater(p)
		return res, false
	}
	// The child could not report: reap it now and take the kernel's
	// figures, and its exit signal.
	s.pool.Done(p)
	p.reportKernelUsage(&res.Stats)
	if sig, ok := p.exitSignal(); ok && sig == syscall.SIGSYS && res.Error != nil && res.Error.Type == contract.SandboxError {
		res.Error.Message = "the child was killed by its seccomp filter: it made a forbidden system call (" + res.Error.Message + ")"
	}
	return res, !started && res.Error != nil && res.Error.Type == contract.SandboxError
}

// discardLater hands p back to the pool, which removes it, off the
// caller's path; Close waits for it.
func (s *Supervisor) discardLater(p *process) {
	s.reaping.Add(1)
	go func() {
		defer s.reaping.Done()
		s.pool.Done(p)
	}()
}

// execOn runs req on child p with the three timeout layers. reported is
// true when the envelope came from the child itself, started when the
// child said it began the execution.
//
// An envelope the child could not send (it was killed, or died) is the
// supervisor's: it carries the logs the child streamed before the end
// (runawayLogs) and, as stats.wall_ms, the supervisor's own measure from
// sending the request to the kill.
func (s *Supervisor) execOn(ctx context.Context, p *process, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) (res contract.Result, reported, started bool) {
	sent := time.Now()
	deadline := sent.Add(req.Limits.Timeout)
	hard := deadline.Add(s.cfg.KillGrace)
	streamCtx, cancel := context.WithDeadline(ctx, hard)
	defer cancel()
	// The kill happens once, from the timer at the hard deadline or from
	// here when the stream ends without a result; killOnce.Do returns
	// only once it did, so what it records is final after kill.
	var (
		killOnce sync.Once
		killedAt time.Time
		timedOut bool
	)
	kill := func(atDeadline bool) {
		killOnce.Do(func() {
			killedAt = time.Now()
			if atDeadline {
				timedOut = true
				s.kills.Add(1)
			}
			p.killGroup()
		})
	}
	killer := time.AfterFunc(time.Until(hard), func() { kill(true) })
	defer killer.Stop()

	var logs runawayLogs
	forward := func(ev contract.Event) {
		switch ev.Type {
		case contract.EventStarted:
			started = true
		case contract.EventLog:
			logs.add(ev.Log)
		}
		if onEvent != nil {
			onEvent(ev)
		}
	}
	res, err := p.proc.Client().Execute(streamCtx, req, forward, boundHandler(handler))
	if err == nil {
		return res, true, true
	}
	// Classify from what the supervisor knows; the child is finished
	// either way. The stream's deadline, unless the caller's came first,
	// is the timer's: whichever fires first, it is the hard kill.
	kill(errors.Is(streamCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil)
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		res = contract.Fail(contract.Errorf(contract.AbortError, "execution cancelled by the caller"), req.Limits)
	case timedOut || errors.Is(streamCtx.Err(), context.DeadlineExceeded):
		res = contract.Fail(contract.Errorf(contract.TimeoutError,
			"execution exceeded its %v deadline; the child was killed", req.Limits.Timeout), req.Limits)
	default:
		e := contract.AsError(err)
		if e.Type != contract.SandboxError {
			e = &contract.Error{Type: contract.SandboxError, Message: err.Error()}
		}
		res = contract.Fail(e, req.Limits)
	}
	res.Logs, res.Stats.LogBytes = logs.bounded(req.Limits.OutputBytes)
	res.Stats.WallMS = contract.Millis(killedAt.Sub(sent))
	return res, false, started
}

// boundHandler bounds handler by the execution: it runs on its own
// goroutine, and the execution stops waiting for it when the handler's
// ctx ends (the stream's, at the deadline plus the grace), even when the
// handler ignores its ctx. The child's own deadline answers the guest
// first; the kill is the backstop. Everything else about data requests
// (the events, their count and size, no handler, null, JSON) is
// ipc.Client's, under contract.CallDataHandler's policy.
func boundHandler(handler contract.DataHandler) contract.DataHandler {
	if handler == nil {
		return nil
	}
	return func(hctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
		type answer struct {
			v   json.RawMessage
			err error
		}
		ch := make(chan answer, 1)
		go func() {
			v, err := handler(hctx, name, args)
			ch <- answer{v, err}
		}()
		select {
		case a := <-ch:
			return a.v, a.err
		case <-hctx.Done():
			return nil, fmt.Errorf("host.request %q: the data handler did not answer before the deadline", name)
		}
	}
}

// Stats is a snapshot of the supervisor's metrics.
type Stats struct {
	Executions uint64
	Failures   uint64
	// Kills counts children SIGKILLed at their hard deadline.
	Kills uint64
	Pool  PoolStats
	// Startup is where child start-up goes, phase by phase (medians over
	// recent children), on both sides.
	Startup []PhaseStat
}

// PoolStats is a snapshot of the pool of children.
type PoolStats struct {
	// Idle, Busy and Spawning count the children ready, running an
	// execution and starting; Waiting counts the executions waiting for
	// a child.
	Idle, Busy, Spawning, Waiting int
	// Live counts the children alive, as MaxChildren counts them: idle,
	// busy, starting, and handed back but not yet discarded.
	Live        int
	MaxChildren int
	// Profiles is the number of memory profiles the pool holds children
	// or state for.
	Profiles int
	// Spawned and SpawnFailures count child start-ups; Discarded counts
	// children removed, whatever the reason.
	Spawned, SpawnFailures, Discarded uint64
	// Evicted counts idle children discarded to make room for another
	// profile or because their profile went unused for ProfileIdleTTL.
	Evicted uint64
	// SpawnLatencyP50 and SpawnLatencyP90 are the median and the 90th
	// percentile of the most recent successful start-ups.
	SpawnLatencyP50, SpawnLatencyP90 time.Duration
	// LastSpawnError is the last start-up's error, empty if none failed.
	LastSpawnError string
	// ByProfile splits Idle, Busy, Spawning and Waiting by memory
	// profile, smallest first.
	ByProfile []ProfileStats
}

// ProfileStats are one memory profile's children and waiters.
type ProfileStats struct {
	// MemoryBytes is the profile's memory bucket (Config.MemoryBuckets).
	MemoryBytes                   int64
	Idle, Busy, Spawning, Waiting int
}

// Stats returns the supervisor's metrics.
func (s *Supervisor) Stats() Stats {
	return Stats{Executions: s.executions.Load(), Failures: s.failures.Load(), Kills: s.kills.Load(),
		Pool: poolStats(s.pool.StatsByProfile()), Startup: s.startup.snapshot()}
}

// poolStats copies the pool's snapshot field by field, so that the pool's
// own type stays out of the API.
func poolStats(p pool.Stats, profiles []pool.ProfileStats[int64]) PoolStats {
	by := make([]ProfileStats, len(profiles))
	for i, pr := range profiles {
		by[i] = ProfileStats{MemoryBytes: pr.Key, Idle: pr.Idle, Busy: pr.Busy, Spawning: pr.Spawning, Waiting: pr.Waiting}
	}
	slices.SortFunc(by, func(a, b ProfileStats) int { return cmp.Compare(a.MemoryBytes, b.MemoryBytes) })
	return PoolStats{Idle: p.Idle, Busy: p.Busy, Spawning: p.Spawning, Waiting: p.Waiting,
		Live: p.Live, MaxChildren: p.MaxChildren, Profiles: p.Profiles,
		Spawned: p.Spawned, SpawnFailures: p.SpawnFailures, Discarded: p.Discarded, Evicted: p.Evicted,
		SpawnLatencyP50: p.SpawnLatencyP50, SpawnLatencyP90: p.SpawnLatencyP90, LastSpawnError: p.LastSpawnError,
		ByProfile: by}
}

// Close stops taking executions, kills idle children, waits for busy
// ones until ctx ends and kills the rest. No child process outlives it.
func (s *Supervisor) Close(ctx context.Context) error {
	s.closed.Store(true)
	err := s.pool.Close(ctx)
	s.reaping.Wait()
	return errors.Join(err, s.closeCgroups())
}

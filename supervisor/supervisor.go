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
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/pool"
)

// Config configures a Supervisor. It is copied and validated once in New;
// every zero field takes the documented default.
type Config struct {
	// Binary is the program started as a child, with ChildArgs. Default:
	// this executable (os.Executable), which must then call
	// child.RunIfChild at the top of main or be the warden binary.
	Binary string
	// ChildArgs are the child's arguments. Default: ["child"].
	ChildArgs []string
	// CacheDir is the wazero compilation cache every child shares: only
	// the supervisor writes it (with a compile child, as its own uid,
	// before the first child starts); children read it and check each
	// file's SHA-256. New creates it 0755 if missing and refuses it
	// (ErrUnsafeCache) when it, or anything in it, is a symbolic link,
	// is owned by another uid or is writable by group or others, or when
	// a directory on its path is not searchable by the children's uid.
	// Default: DefaultCacheDir (RootCacheDir as root).
	CacheDir string
	// PoolSize is the number of idle children kept ready per memory
	// profile. Default 2.
	PoolSize int
	// MemoryBuckets are the memory profiles children are prepared for: a
	// request's memory limit is rounded up to the next one for choosing
	// a child and for the child's linear-memory and cgroup caps, while
	// QuickJS enforces the request's exact limit. The default limit,
	// the memory cap and PrewarmMemory's values are always buckets.
	// Default: powers of two from 1 MiB up to the memory cap.
	MemoryBuckets []int64
	// PrewarmMemory lists memory limits whose profiles are warmed at New
	// and kept warm, besides the default limit's. Default: none.
	PrewarmMemory []int64
	// ProfileIdleTTL is how long the profile of a memory limit that is
	// not kept warm keeps its idle children after its last use; then
	// they are discarded (cgroups removed) and the pool forgets the
	// profile. Default 1m.
	ProfileIdleTTL time.Duration
	// MaxChildren caps the children alive at once across all profiles:
	// idle, busy, starting and being removed. Past it an execution waits
	// (an idle child of another profile is evicted to make room) and
	// fails with CapacityError after QueueTimeout. Default max(4 x
	// PoolSize, 2 x the CPUs), raised so that one profile more than the
	// ones kept warm fits; a value below PoolSize x the kept-warm
	// profiles is an error.
	MaxChildren int
	// SpawnConcurrency bounds children starting at once. Default 2.
	SpawnConcurrency int
	// MaxIdleAge replaces idle children older than this. Default 5m.
	MaxIdleAge time.Duration
	// QueueTimeout bounds the wait for a free child; past it an execution
	// fails with CapacityError. Default 5s.
	QueueTimeout time.Duration
	// KillGrace is how long past its deadline a child may take before its
	// process group is SIGKILLed. Default 250ms.
	KillGrace time.Duration
	// StartTimeout bounds one child's whole start-up, one budget for the
	// handshake, its first ping and opening its stream: a child still not
	// ready then is killed and the spawn fails. It bounds the compile
	// child's run too. Default 10s.
	StartTimeout time.Duration
	// Defaults and Caps bound requests. Default: contract.DefaultLimits
	// and contract.DefaultCaps.
	Defaults contract.Limits
	Caps     contract.Limits
	// MaxInputBytes caps a request's Input (its JSON text): a larger
	// input is a ContractError before any child is taken, so that no
	// caller makes the supervisor copy and send an unbounded input.
	// Default DefaultMaxInputBytes.
	MaxInputBytes int64
	// Cgroups selects the cgroup layer: CgroupsAuto (default) uses
	// cgroups where the machine allows and falls back to rlimits on the
	// child otherwise (RLIMIT_DATA, RLIMIT_CPU, RLIMIT_NPROC);
	// CgroupsRequired fails New without them;
	// CgroupsOff never uses them.
	Cgroups CgroupPolicy
	// CgroupParent is the cgroup children are created below. Default: the
	// supervisor's own cgroup.
	CgroupParent string
	// MemoryOverheadBytes is added to the wasm linear-memory cap to form
	// the child's cgroup memory cap: the Go runtime, wazero's compiled
	// code and the module's decode. Default 48 MiB (see BENCHMARKS.md).
	MemoryOverheadBytes int64
	// PidsMax caps the tasks (threads included) in a child's cgroup.
	// Default 64.
	PidsMax int64
	// NoNamespaces, NoSeccomp and NoRlimits switch off single layers of
	// the child's hardening (all on by default, where the kernel allows):
	// for measurements and for tests that attack one layer at a time.
	NoNamespaces, NoSeccomp, NoRlimits bool
	// ChildUIDBase and ChildUIDCount are the ids children run as when the
	// supervisor is root: each live child gets a uid of its own from
	// [ChildUIDBase, ChildUIDBase+ChildUIDCount), and a gid equal to it,
	// reused only after its previous holder is reaped; when all are
	// held, a spawn fails with ErrNoChildUID. Distinct ids keep children
	// from signalling, tracing or reading one another (kill and ptrace
	// need the same uid). Default: DefaultChildUIDBase (2^30) and
	// DefaultChildUIDCount (65536). New refuses a range that a user,
	// group or subordinate-id range of this machine claims. Without root
	// a user namespace makes children unprivileged instead, and these are
	// unused.
	ChildUIDBase, ChildUIDCount int
	// ChildAsSupervisorUser keeps children as the supervisor's own user
	// (root, when it is root) instead of giving each its own uid: for
	// measurements and for tests that attack one layer at a time.
	ChildAsSupervisorUser bool
	// KeepWarm is how often an idle child re-reads the memory it has
	// resident, so that an execution after a long idle spell does not
	// pay for memory gone cold (on VMs such as the one Warden is
	// measured on, an execution after 33 s idle took 5.6 ms at p50
	// without it and 3.8 ms with it; BENCHMARKS.md). It costs an idle
	// child about 3 ms of CPU per second at the default. Default 1s; values
	// under 100ms are raised to 100ms; negative turns it off.
	KeepWarm time.Duration
	// ReapedUsage makes Execute wait until the child is reaped and report
	// the kernel's account of it (Stats.ChildCPUMS and ChildMaxRSSBytes
	// from wait4's rusage, so CPU the child spent after its result and
	// its exit count too) instead of the child's own getrusage sent with
	// its result. The kernel's figures hold even for a child whose Go
	// side was subverted; waiting costs latency (BENCHMARKS.md). Default
	// false: the child reports, and the reap happens off the caller's
	// path.
	ReapedUsage bool
	// Logger receives the supervisor's logs, and what children write to
	// stderr as bounded, rate-limited text under the fixed message
	// "child stderr" (a child cannot make a record of its own).
	// Default: discard.
	Logger *slog.Logger
}

// CgroupPolicy says whether children get cgroups.
type CgroupPolicy int

// The cgroup policies.
const (
	CgroupsAuto CgroupPolicy = iota
	CgroupsRequired
	CgroupsOff
)

// Supervisor runs executions in child processes. It is safe for
// concurrent use.
type Supervisor struct {
	cfg  Config
	log  *slog.Logger
	pool *pool.Pool[int64, *process]
	// buckets are the memory profiles, sorted (memoryBuckets).
	buckets []int64

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

// New validates cfg and starts warming the pool for the default limits.
func New(cfg Config) (*Supervisor, error) {
	if cfg.Binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("supervisor: find own executable: %w", err)
		}
		cfg.Binary = exe
	}
	if _, err := os.Stat(cfg.Binary); err != nil {
		return nil, fmt.Errorf("supervisor: child binary: %w", err)
	}
	if cfg.ChildArgs == nil {
		cfg.ChildArgs = []string{"child"}
	}
	cfg.ChildArgs = append([]string(nil), cfg.ChildArgs...)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	uids, userNote, err := childUsers(&cfg)
	if err != nil {
		return nil, err
	}
	if cfg.CacheDir == "" {
		dir, err := DefaultCacheDir()
		if err != nil {
			return nil, err
		}
		cfg.CacheDir = dir
	}
	// Children read the cache as their own uids: any uid of the range
	// stands for all (none owns anything).
	readerUID := -1
	if uids != nil {
		readerUID = uids.base
	}
	dir, err := prepareCacheDir(cfg.CacheDir, readerUID, readerUID)
	if err != nil {
		return nil, err
	}
	cfg.CacheDir = dir
	if cfg.KillGrace < 0 || cfg.QueueTimeout < 0 || cfg.StartTimeout < 0 || cfg.PoolSize < 0 || cfg.MaxInputBytes < 0 {
		return nil, errors.New("supervisor: negative duration or size in Config")
	}
	if cfg.KillGrace == 0 {
		cfg.KillGrace = 250 * time.Millisecond
	}
	if cfg.KeepWarm == 0 {
		cfg.KeepWarm = time.Second
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.MaxInputBytes == 0 {
		cfg.MaxInputBytes = DefaultMaxInputBytes
	}
	if cfg.Defaults == (contract.Limits{}) {
		cfg.Defaults = contract.DefaultLimits
	}
	if cfg.Caps == (contract.Limits{}) {
		cfg.Caps = contract.DefaultCaps
	}
	if _, _, err := contract.Resolve(contract.Limits{}, cfg.Defaults, cfg.Caps); err != nil {
		return nil, fmt.Errorf("supervisor: default limits: %w", err)
	}
	if cfg.MemoryOverheadBytes == 0 {
		cfg.MemoryOverheadBytes = DefaultMemoryOverhead
	}
	if cfg.PidsMax == 0 {
		cfg.PidsMax = 64
	}
	buckets, err := memoryBuckets(cfg)
	if err != nil {
		return nil, err
	}
	s := &Supervisor{cfg: cfg, log: cfg.Logger, userNote: userNote, uids: uids, compile: newCompileGate()}
	s.buckets = buckets
	if !cfg.NoNamespaces {
		s.nsFlags, s.nsNote = namespaceFlags()
		if s.nsNote != "" {
			s.log.Warn("children get fewer namespaces", "reason", s.nsNote)
		}
	}
	if err := s.startCgroups(); err != nil {
		return nil, err
	}
	p, err := pool.New(pool.Config[int64, *process]{
		Spawn:            s.spawn,
		Keys:             prewarmKeys(cfg, buckets),
		TargetIdle:       cfg.PoolSize,
		SpawnConcurrency: cfg.SpawnConcurrency,
		MaxChildren:      cfg.MaxChildren,
		IdleTTL:          cfg.ProfileIdleTTL,
		MaxAge:           cfg.MaxIdleAge,
		QueueTimeout:     cfg.QueueTimeout,
		Logger:           cfg.Logger.With("component", "pool"),
	})
	if err != nil {
		s.closeCgroups()
		return nil, fmt.Errorf("supervisor: %w", err)
	}
	s.pool = p
	return s, nil
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
	if n := int64(len(req.Input)); n > s.cfg.MaxInputBytes {
		res := contract.Fail(contract.Errorf(contract.ContractError,
			"input is %d bytes, over the supervisor's cap of %d bytes (MaxInputBytes)", n, s.cfg.MaxInputBytes), limits)
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
		// process teardown) happens off the caller's path. Close waits
		// for it.
		s.reaping.Add(1)
		go func() {
			defer s.reaping.Done()
			s.pool.Done(p)
		}()
		return res, false
	}
	// The child could not report: reap it now and take the kernel's
	// figures.
	s.pool.Done(p)
	p.reportKernelUsage(&res.Stats)
	if sig, ok := p.exitSignal(); ok && sig == syscall.SIGSYS && res.Error != nil && res.Error.Type == contract.SandboxError {
		res.Error.Message = "the child was killed by its seccomp filter: it made a forbidden system call (" + res.Error.Message + ")"
	}
	return res, !started && res.Error != nil && res.Error.Type == contract.SandboxError
}

// execOn runs req on child p with the three timeout layers. reported is
// true when the envelope came from the child itself, started when the
// child said it began the execution.
func (s *Supervisor) execOn(ctx context.Context, p *process, req contract.Request, handler contract.DataHandler, onEvent func(contract.Event)) (res contract.Result, reported, started bool) {
	deadline := time.Now().Add(req.Limits.Timeout)
	hard := deadline.Add(s.cfg.KillGrace)
	streamCtx, cancel := context.WithDeadline(ctx, hard)
	defer cancel()
	var killed atomic.Bool
	killer := time.AfterFunc(time.Until(hard), func() {
		killed.Store(true)
		s.kills.Add(1)
		p.killGroup()
	})
	defer killer.Stop()

	forward := func(ev contract.Event) {
		if ev.Type == contract.EventStarted {
			started = true
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
	// either way.
	p.killGroup()
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return contract.Fail(contract.Errorf(contract.AbortError, "execution cancelled by the caller"), req.Limits), false, started
	case killed.Load() || errors.Is(streamCtx.Err(), context.DeadlineExceeded):
		return contract.Fail(contract.Errorf(contract.TimeoutError,
			"execution exceeded its %v deadline; the child was killed", req.Limits.Timeout), req.Limits), false, started
	default:
		e := contract.AsError(err)
		if e.Type != contract.SandboxError {
			e = &contract.Error{Type: contract.SandboxError, Message: err.Error()}
		}
		return contract.Fail(e, req.Limits), false, started
	}
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
	Pool  pool.Stats
	// Startup is where child start-up goes, phase by phase (medians over
	// recent children), on both sides.
	Startup []PhaseStat
}

// Stats returns the supervisor's metrics.
func (s *Supervisor) Stats() Stats {
	return Stats{Executions: s.executions.Load(), Failures: s.failures.Load(), Kills: s.kills.Load(), Pool: s.pool.Stats(), Startup: s.startup.snapshot()}
}

// Close stops taking executions, kills idle children, waits for busy
// ones until ctx ends and kills the rest. No child process outlives it.
func (s *Supervisor) Close(ctx context.Context) error {
	s.closed.Store(true)
	err := s.pool.Close(ctx)
	s.reaping.Wait()
	return errors.Join(err, s.closeCgroups())
}

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
// Inside, two halves meet at the pool. The request path (Supervisor:
// supervisor.go, execute.go, stats.go, runaway.go) takes a child from
// the pool, runs one execution on it and counts executions, failures
// and kills. The spawner (processSpawner: spawner.go and the files it
// names) makes the children the pool holds: uids, cgroups, namespaces,
// hardening, the compile child and the compilation cache's trust chain
// (cache.go), and start-up stats. The request path reaches the spawner
// only through childSpawner, and a child only through process's
// methods (process.go); memory.go sizes a child for both.
//
// The package imports only the standard library and Warden's own
// packages.
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/ipc"
	"github.com/wardenhq/warden/pool"
)

// Supervisor runs executions in child processes. It is safe for
// concurrent use.
type Supervisor struct {
	cfg  Config
	log  *slog.Logger
	pool *pool.Pool[profile, *process]
	// buckets are the memory profiles, sorted (memoryBuckets).
	buckets []int64
	// spawner makes the pool's children (the pool's Spawn) and reports
	// on them.
	spawner childSpawner
	// registry is the registered modules (nil: none).
	registry *registry.Set

	// execPhases is where executions' time goes (Stats.Execution).
	execPhases startupStats
	// park seals and opens parked states (park.go); build names this
	// build in them; resumed holds the states taken, until they expire.
	park    *parkKeys
	build   func() string
	resumed resumed

	executions atomic.Uint64
	failures   atomic.Uint64
	kills      atomic.Uint64
	closed     atomic.Bool
	// reaping counts children handed back off the caller's path
	// (discardLater); Close waits for them.
	reaping sync.WaitGroup
}

// childSpawner is what the request path needs of the spawner: the
// pool's spawn function, the reports it gives (Stats, Layers, Cache),
// and its end.
type childSpawner interface {
	// spawn starts one child prepared for a profile (the pool's key) and
	// returns it ready.
	spawn(ctx context.Context, p profile) (*process, error)
	startupPhases() []PhaseStat
	layers() Layers
	cacheInfo() CacheInfo
	// close waits for children the spawner still tracks and removes
	// what it set up (the cgroup layer). The pool is closed first.
	close() error
}

// New validates cfg, resolves its defaults, sets up the cgroup layer and
// starts warming the pool for the default limits; it returns without
// waiting for a child. Off Linux it returns ErrUnsupportedPlatform.
//
// New takes no context because nothing it does waits on something a
// caller could usefully cancel. Its one wait is the cgroup layer's
// clean-up of groups a dead supervisor left, where each group's killed
// processes get at most 2s to die (milliseconds in practice). The compile
// child and every spawn run in the background, each bounded by
// StartTimeout, and Close ends them. A caller that wants a warm pool
// before serving watches Stats().Pool.Idle, or runs an execution.
func New(cfg Config) (_ *Supervisor, err error) {
	if err := checkPlatform(); err != nil {
		return nil, err
	}
	lean, leanNote, err := resolveChildCommand(&cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lean.close()
		}
	}()
	uids, userNote, err := childUsers(&cfg)
	if err != nil {
		return nil, err
	}
	if err := resolveCacheDir(&cfg, uids); err != nil {
		return nil, err
	}
	if err := prepareWasm(&cfg); err != nil {
		return nil, err
	}
	if err := resolveDefaults(&cfg); err != nil {
		return nil, err
	}
	buckets, err := memoryBuckets(cfg)
	if err != nil {
		return nil, err
	}
	set, err := loadRegistry(&cfg)
	if err != nil {
		return nil, err
	}
	keys, err := newParkKeys(&cfg)
	if err != nil {
		return nil, err
	}
	// Refused here, not as one execution's SandboxError: caps whose
	// largest message is more than gRPC carries.
	wire, err := ipc.DeriveWireCaps(cfg.Caps, cfg.MaxInputBytes)
	if err != nil {
		return nil, fmt.Errorf("supervisor: Config.Caps and MaxInputBytes: %w", err)
	}
	sp, err := newProcessSpawner(cfg, wire, uids, userNote)
	if err != nil {
		return nil, err
	}
	sp.registry = set
	sp.lean, sp.leanNote = lean, leanNote
	if set != nil {
		// Registered modules that cannot be evaluated (an import outside
		// them, a top level that throws) fail New, not each execution:
		// the compile child evaluates them now.
		if err := sp.waitCompile(cfg); err != nil {
			sp.close()
			return nil, err
		}
	}
	s := &Supervisor{cfg: cfg, log: cfg.Logger, buckets: buckets, spawner: sp, registry: set,
		park: keys, build: newBuildDigest(cfg.Binary, registryDigest(set))}
	if err := s.startPool(); err != nil {
		sp.close()
		return nil, err
	}
	return s, nil
}

// startPool starts the pool of children, which begins warming the
// profiles kept warm.
func (s *Supervisor) startPool() error {
	cfg := s.cfg
	p, err := pool.New(pool.Config[profile, *process]{
		Spawn:            s.spawner.spawn,
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

// Layers reports the supervisor's process-level layers, from the
// hardening every spawn asks its child for.
func (s *Supervisor) Layers() Layers { return s.spawner.layers() }

// Cache describes the compilation cache.
func (s *Supervisor) Cache() CacheInfo { return s.spawner.cacheInfo() }

// Close stops taking executions, kills idle children, waits for busy
// ones until ctx ends and kills the rest. No child process outlives it.
func (s *Supervisor) Close(ctx context.Context) error {
	s.closed.Store(true)
	err := s.pool.Close(ctx)
	s.reaping.Wait()
	return errors.Join(err, s.spawner.close())
}

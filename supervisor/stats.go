package supervisor

import (
	"cmp"
	"github.com/wardenhq/warden/contract"
	"slices"
	"time"

	"github.com/wardenhq/warden/pool"
)

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
	// Execution is where an execution's time goes once it has a request,
	// phase by phase (medians over recent executions a child reported;
	// CPUMS and PageFaults zero): the execution's own wall time in the
	// child (stats.wall_ms), and on the supervisor's side the dispatch
	// (limits, checks, an idle child taken: queue wait included), the
	// wire each way with the child's serving less the execution, and the
	// result's checks up to the envelope.
	Execution []PhaseStat
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
	MemoryBytes int64
	// TypeScript marks the profile of TypeScript requests, whose
	// children warm esbuild during start-up.
	TypeScript                    bool
	Idle, Busy, Spawning, Waiting int
}

// Stats returns the supervisor's metrics.
func (s *Supervisor) Stats() Stats {
	return Stats{Executions: s.executions.Load(), Failures: s.failures.Load(), Kills: s.kills.Load(),
		Pool: poolStats(s.pool.StatsByProfile()), Startup: s.spawner.startupPhases(), Execution: s.execPhases.snapshot()}
}

// poolStats copies the pool's snapshot field by field, so that the pool's
// own type stays out of the API.
func poolStats(p pool.Stats, profiles []pool.ProfileStats[profile]) PoolStats {
	by := make([]ProfileStats, len(profiles))
	for i, pr := range profiles {
		by[i] = ProfileStats{MemoryBytes: pr.Key.memory, TypeScript: pr.Key.typescript, Idle: pr.Idle, Busy: pr.Busy, Spawning: pr.Spawning, Waiting: pr.Waiting}
	}
	slices.SortFunc(by, func(a, b ProfileStats) int {
		if c := cmp.Compare(a.MemoryBytes, b.MemoryBytes); c != 0 {
			return c
		}
		return cmp.Compare(boolRank(a.TypeScript), boolRank(b.TypeScript))
	})
	return PoolStats{Idle: p.Idle, Busy: p.Busy, Spawning: p.Spawning, Waiting: p.Waiting,
		Live: p.Live, MaxChildren: p.MaxChildren, Profiles: p.Profiles,
		Spawned: p.Spawned, SpawnFailures: p.SpawnFailures, Discarded: p.Discarded, Evicted: p.Evicted,
		SpawnLatencyP50: p.SpawnLatencyP50, SpawnLatencyP90: p.SpawnLatencyP90, LastSpawnError: p.LastSpawnError,
		ByProfile: by}
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Limits are the limits in force: what a request gets for a limit it
// leaves unset (Config.Defaults, resolved) and the most it may ask for
// (Config.Caps).
func (s *Supervisor) Limits() (defaults, caps contract.Limits) { return s.cfg.Defaults, s.cfg.Caps }

// Package pool keeps prespawned children ready, per profile, and hands
// each one out exactly once.
//
// A Pool holds a target number of idle children for every key in use (a
// profile: a child prepared for one memory cap is never used for
// another). The keys in Config.Keys are warmed at New and kept warm; any
// other key gets a profile when first asked for, and loses it again
// (idle children discarded, state dropped) after IdleTTL without use, so
// that the pool's processes and maps follow the keys in use, not every
// key ever seen. MaxChildren caps the children alive across all
// profiles, idle, busy, starting or being discarded: past it, a Get
// waits, an idle child of another profile is evicted to make room, and
// the Get fails with ErrExhausted after QueueTimeout.
//
// Taking a child starts a replacement in the background, bounded by a
// spawn concurrency; idle children that die or grow older than MaxAge
// are replaced; a failing spawn is retried with exponential backoff.
// Children are never reused: the caller hands a child back with Done,
// and the pool discards it.
//
// The pool knows nothing about processes: Spawn and the Child methods are
// the caller's. It imports only the standard library.
//
// This is an implementation package of Warden, with no compatibility
// promise: its API changes whenever Warden's internals do. Programs that
// embed Warden use the supervisor and contract packages.
//
// This package is Warden's implementation, not its API (package warden
// lists the API).
package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Child is what the pool holds. Discard must kill and reap it and be safe
// to call more than once.
type Child interface {
	comparable
	Exited() bool
	Discard()
}

// Errors callers branch on.
var (
	ErrExhausted = errors.New("pool: no child became free within the queue timeout")
	ErrClosed    = errors.New("pool: closed")
)

// Config configures a Pool. Zero fields take the documented defaults.
type Config[K comparable, C Child] struct {
	// Spawn starts one child for key and returns it ready. Required.
	Spawn func(ctx context.Context, key K) (C, error)
	// Keys are warmed at New and kept warm for the pool's life; other
	// keys are warmed when first asked for and dropped after IdleTTL.
	Keys []K
	// TargetIdle is the number of idle children kept per key. Default 2.
	TargetIdle int
	// SpawnConcurrency bounds spawns in flight across all keys. Default 2.
	SpawnConcurrency int
	// MaxChildren caps the children alive across all keys: idle, busy,
	// starting, and handed back but not yet discarded. Default
	// DefaultMaxChildren(TargetIdle, len(Keys)). A value below
	// TargetIdle x len(Keys) is an error: the kept-warm keys could not
	// all be warm.
	MaxChildren int
	// IdleTTL is how long a key not in Keys keeps its profile after its
	// last Get or Done; then its idle children are discarded and its
	// state dropped. Default DefaultIdleTTL.
	IdleTTL time.Duration
	// MaxAge replaces idle children older than this. Default 5 minutes.
	MaxAge time.Duration
	// QueueTimeout bounds how long Get waits for a child. Default 5s.
	QueueTimeout time.Duration
	// BackoffMin and BackoffMax bound the retry delay after failed
	// spawns. Defaults 100ms and 5s.
	BackoffMin, BackoffMax time.Duration
	// CheckInterval is how often idle children and profiles are checked.
	// Default 250ms.
	CheckInterval time.Duration
	// Logger; nil discards.
	Logger *slog.Logger
}

// DefaultIdleTTL is IdleTTL's default.
const DefaultIdleTTL = time.Minute

// DefaultMaxChildren is MaxChildren's default for targetIdle children
// per key and keys kept warm: max(4 x targetIdle, 2 x NumCPU), raised
// so that one profile more than the kept-warm ones fits. Four times the
// idle target leaves room for the busy children and replacements of a
// busy profile; twice the CPUs lets executions waiting on data requests
// overlap with ones computing. Children past the cap would only queue
// for CPU and hold memory.
func DefaultMaxChildren(targetIdle, keys int) int {
	return max(4*targetIdle, 2*runtime.NumCPU(), targetIdle*(keys+1))
}

// Stats is a snapshot of the pool's metrics.
type Stats struct {
	Idle     int
	Busy     int
	Spawning int
	Waiting  int
	// Live counts the children alive, as MaxChildren counts them: idle,
	// busy, starting, and handed back but not yet discarded.
	Live        int
	MaxChildren int
	// Profiles is the number of keys the pool holds state for.
	Profiles      int
	Spawned       uint64
	SpawnFailures uint64
	Discarded     uint64
	// Evicted counts idle children discarded to make room for another
	// key or because their key went unused for IdleTTL.
	Evicted uint64
	// SpawnLatency is the median and the 90th percentile of the last 256
	// successful spawns.
	SpawnLatencyP50 time.Duration
	SpawnLatencyP90 time.Duration
	LastSpawnError  string
}

type entry[C Child] struct {
	child C
	born  time.Time
}

type waiter[C Child] struct {
	ch    chan C
	since time.Time
}

type profile[K comparable, C Child] struct {
	key      K
	pinned   bool // in Config.Keys: kept warm, never dropped
	idle     []entry[C]
	waiters  []*waiter[C]
	spawning int
	busy     int
	failures int // consecutive
	retryAt  time.Time
	lastUsed time.Time
}

// Pool is a set of prespawned children. It is safe for concurrent use.
type Pool[K comparable, C Child] struct {
	cfg    Config[K, C]
	log    *slog.Logger
	ctx    context.Context // ends at Close: stops spawns in flight
	cancel context.CancelFunc
	sem    chan struct{}
	wg     sync.WaitGroup

	mu       sync.Mutex
	profiles map[K]*profile[K, C]
	busy     map[C]K
	closed   bool
	// live = idle + busy + spawning + freeing, across profiles; it never
	// exceeds cfg.MaxChildren.
	live int
	// freeing counts children being discarded: their slots free up when
	// Discard returns.
	freeing   int
	spawned   uint64
	failed    uint64
	discarded uint64
	evicted   uint64
	lastErr   string
	latencies []time.Duration // ring
	latNext   int
}

// New validates cfg, starts warming cfg.Keys and the maintenance loop.
func New[K comparable, C Child](cfg Config[K, C]) (*Pool[K, C], error) {
	if cfg.Spawn == nil {
		return nil, errors.New("pool: Config.Spawn is required")
	}
	if cfg.TargetIdle < 0 || cfg.SpawnConcurrency < 0 || cfg.MaxChildren < 0 || cfg.IdleTTL < 0 || cfg.MaxAge < 0 || cfg.QueueTimeout < 0 {
		return nil, errors.New("pool: negative configuration value")
	}
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	if cfg.TargetIdle == 0 {
		cfg.TargetIdle = 2
	}
	if cfg.SpawnConcurrency == 0 {
		cfg.SpawnConcurrency = 2
	}
	cfg.Keys = slices.Clone(cfg.Keys)
	keys := map[K]bool{}
	for _, k := range cfg.Keys {
		keys[k] = true
	}
	if cfg.MaxChildren == 0 {
		cfg.MaxChildren = DefaultMaxChildren(cfg.TargetIdle, len(keys))
	}
	if cfg.MaxChildren < cfg.TargetIdle*len(keys) {
		return nil, fmt.Errorf("pool: MaxChildren %d is below the %d idle children the %d kept-warm keys hold", cfg.MaxChildren, cfg.TargetIdle*len(keys), len(keys))
	}
	def(&cfg.IdleTTL, DefaultIdleTTL)
	def(&cfg.MaxAge, 5*time.Minute)
	def(&cfg.QueueTimeout, 5*time.Second)
	def(&cfg.BackoffMin, 100*time.Millisecond)
	def(&cfg.BackoffMax, 5*time.Second)
	def(&cfg.CheckInterval, 250*time.Millisecond)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool[K, C]{
		cfg: cfg, log: cfg.Logger, ctx: ctx, cancel: cancel,
		sem:      make(chan struct{}, cfg.SpawnConcurrency),
		profiles: map[K]*profile[K, C]{},
		busy:     map[C]K{},
	}
	p.mu.Lock()
	for _, k := range cfg.Keys {
		p.profileLocked(k).pinned = true
	}
	p.fillLocked()
	p.mu.Unlock()
	p.wg.Add(1)
	go p.maintain()
	return p, nil
}

func (p *Pool[K, C]) profileLocked(k K) *profile[K, C] {
	pr, ok := p.profiles[k]
	if !ok {
		pr = &profile[K, C]{key: k, lastUsed: time.Now()}
		p.profiles[k] = pr
	}
	return pr
}

// Get takes a ready child for key, waiting up to QueueTimeout. The caller
// must hand it back with Done.
func (p *Pool[K, C]) Get(ctx context.Context, key K) (C, error) {
	var zero C
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return zero, ErrClosed
	}
	pr := p.profileLocked(key)
	pr.lastUsed = time.Now()
	for len(pr.idle) > 0 {
		e := pr.idle[0]
		pr.idle = pr.idle[1:]
		if e.child.Exited() {
			p.discardLocked(e.child)
			continue
		}
		p.busy[e.child] = key
		pr.busy++
		// While other children are idle, the replacement starts when this
		// one is handed back, so that its start-up does not compete for
		// CPU with the execution it is about to run. An empty profile
		// refills at once.
		if len(pr.idle) == 0 {
			p.fillLocked()
		}
		p.mu.Unlock()
		return e.child, nil
	}
	w := &waiter[C]{ch: make(chan C, 1), since: time.Now()}
	pr.waiters = append(pr.waiters, w)
	p.fillLocked()
	p.mu.Unlock()

	timer := time.NewTimer(p.cfg.QueueTimeout)
	defer timer.Stop()
	var err error
	select {
	case c, ok := <-w.ch:
		if !ok {
			return zero, ErrClosed
		}
		return c, nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-timer.C:
		err = ErrExhausted
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := slices.Index(pr.waiters, w); i >= 0 {
		pr.waiters = slices.Delete(pr.waiters, i, i+1)
		return zero, err
	}
	// A child was delivered as we gave up: hand it to the next waiter, or
	// put it back.
	select {
	case c, ok := <-w.ch:
		if ok {
			if len(pr.waiters) > 0 {
				next := pr.waiters[0]
				pr.waiters = pr.waiters[1:]
				next.ch <- c
				break
			}
			delete(p.busy, c)
			pr.busy--
			pr.idle = append(pr.idle, entry[C]{child: c, born: time.Now()})
		}
	default:
	}
	return zero, err
}

// Done hands back a child taken with Get; the pool discards it and
// starts its replacement. The child's slot under MaxChildren frees when
// Discard returns.
func (p *Pool[K, C]) Done(c C) {
	p.mu.Lock()
	key, ok := p.busy[c]
	if ok {
		delete(p.busy, c)
		if pr := p.profiles[key]; pr != nil {
			pr.busy--
			pr.lastUsed = time.Now()
		}
		p.freeing++
		p.fillLocked()
	}
	p.discarded++
	p.mu.Unlock()
	c.Discard()
	if ok {
		p.mu.Lock()
		p.freedLocked()
		p.mu.Unlock()
	}
}

// Stats returns the pool's metrics.
func (p *Pool[K, C]) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.statsLocked()
}

func (p *Pool[K, C]) statsLocked() Stats {
	s := Stats{Busy: len(p.busy), Live: p.live, MaxChildren: p.cfg.MaxChildren, Profiles: len(p.profiles),
		Spawned: p.spawned, SpawnFailures: p.failed, Discarded: p.discarded, Evicted: p.evicted, LastSpawnError: p.lastErr}
	for _, pr := range p.profiles {
		s.Idle += len(pr.idle)
		s.Spawning += pr.spawning
		s.Waiting += len(pr.waiters)
	}
	if n := len(p.latencies); n > 0 {
		l := slices.Clone(p.latencies)
		slices.Sort(l)
		s.SpawnLatencyP50 = l[n/2]
		s.SpawnLatencyP90 = l[n*9/10]
	}
	return s
}

// ProfileStats is one profile's share of Stats.
type ProfileStats[K comparable] struct {
	Key                           K
	Idle, Busy, Spawning, Waiting int
}

// StatsByProfile returns Stats and each profile's share of it (in no
// order), taken at the same moment, so that the shares add up to the
// totals.
func (p *Pool[K, C]) StatsByProfile() (Stats, []ProfileStats[K]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]ProfileStats[K], 0, len(p.profiles))
	for _, pr := range p.profiles {
		out = append(out, ProfileStats[K]{Key: pr.key, Idle: len(pr.idle), Busy: pr.busy, Spawning: pr.spawning, Waiting: len(pr.waiters)})
	}
	return p.statsLocked(), out
}

// Close drains the pool: it stops refilling, discards idle children,
// fails waiters with ErrClosed, waits for busy children to be handed back
// until ctx ends, then discards the rest.
func (p *Pool[K, C]) Close(ctx context.Context) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.cancel()
	var idle []C
	for _, pr := range p.profiles {
		for _, e := range pr.idle {
			idle = append(idle, e.child)
		}
		pr.idle = nil
		for _, w := range pr.waiters {
			close(w.ch)
		}
		pr.waiters = nil
	}
	p.live -= len(idle)
	p.mu.Unlock()
	for _, c := range idle {
		c.Discard()
	}
	p.wg.Wait() // spawns in flight see the closed pool and discard

	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		p.mu.Lock()
		n := len(p.busy)
		p.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			p.mu.Lock()
			var busy []C
			for c := range p.busy {
				busy = append(busy, c)
			}
			clear(p.busy)
			p.live -= len(busy)
			p.mu.Unlock()
			for _, c := range busy {
				c.Discard()
			}
			return fmt.Errorf("pool: close: %d busy children killed: %w", len(busy), ctx.Err())
		case <-tick.C:
		}
	}
}

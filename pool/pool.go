// Package pool keeps prespawned children ready, per limits profile, and
// hands each one out exactly once.
//
// A Pool holds a target number of idle children for every key (a limits
// profile: a child prepared for one memory cap is never used for
// another). Taking a child starts a replacement in the background, bounded
// by a spawn concurrency; idle children that die or grow older than
// MaxAge are replaced; a failing spawn is retried with exponential
// backoff. When no child is free, Get waits up to QueueTimeout and then
// fails with ErrExhausted. Children are never reused: the caller hands a
// child back with Done, and the pool discards it.
//
// The pool knows nothing about processes: Spawn and the Child methods are
// the caller's. It imports only the standard library.
package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	// Keys are warmed at New; other keys are warmed when first asked for.
	Keys []K
	// TargetIdle is the number of idle children kept per key. Default 2.
	TargetIdle int
	// SpawnConcurrency bounds spawns in flight across all keys. Default 2.
	SpawnConcurrency int
	// MaxAge replaces idle children older than this. Default 5 minutes.
	MaxAge time.Duration
	// QueueTimeout bounds how long Get waits for a child. Default 5s.
	QueueTimeout time.Duration
	// BackoffMin and BackoffMax bound the retry delay after failed
	// spawns. Defaults 100ms and 5s.
	BackoffMin, BackoffMax time.Duration
	// CheckInterval is how often idle children are checked. Default 250ms.
	CheckInterval time.Duration
	// Logger; nil discards.
	Logger *slog.Logger
}

// Stats is a snapshot of the pool's metrics.
type Stats struct {
	Idle          int
	Busy          int
	Spawning      int
	Waiting       int
	Spawned       uint64
	SpawnFailures uint64
	Discarded     uint64
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

type profile[K comparable, C Child] struct {
	key      K
	idle     []entry[C]
	waiters  []chan C
	spawning int
	failures int // consecutive
	retryAt  time.Time
}

// Pool is a set of prespawned children. It is safe for concurrent use.
type Pool[K comparable, C Child] struct {
	cfg    Config[K, C]
	log    *slog.Logger
	ctx    context.Context // ends at Close: stops spawns in flight
	cancel context.CancelFunc
	sem    chan struct{}
	wg     sync.WaitGroup

	mu        sync.Mutex
	profiles  map[K]*profile[K, C]
	busy      map[C]K
	closed    bool
	spawned   uint64
	failed    uint64
	discarded uint64
	lastErr   string
	latencies []time.Duration // ring
	latNext   int
}

// New validates cfg, starts warming cfg.Keys and the maintenance loop.
func New[K comparable, C Child](cfg Config[K, C]) (*Pool[K, C], error) {
	if cfg.Spawn == nil {
		return nil, errors.New("pool: Config.Spawn is required")
	}
	if cfg.TargetIdle < 0 || cfg.SpawnConcurrency < 0 || cfg.MaxAge < 0 || cfg.QueueTimeout < 0 {
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
	def(&cfg.MaxAge, 5*time.Minute)
	def(&cfg.QueueTimeout, 5*time.Second)
	def(&cfg.BackoffMin, 100*time.Millisecond)
	def(&cfg.BackoffMax, 5*time.Second)
	def(&cfg.CheckInterval, 250*time.Millisecond)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Keys = slices.Clone(cfg.Keys)
	ctx, cancel := context.WithCancel(context.Background())
	p := &Pool[K, C]{
		cfg: cfg, log: cfg.Logger, ctx: ctx, cancel: cancel,
		sem:      make(chan struct{}, cfg.SpawnConcurrency),
		profiles: map[K]*profile[K, C]{},
		busy:     map[C]K{},
	}
	p.mu.Lock()
	for _, k := range cfg.Keys {
		p.refillLocked(p.profileLocked(k))
	}
	p.mu.Unlock()
	p.wg.Add(1)
	go p.maintain()
	return p, nil
}

func (p *Pool[K, C]) profileLocked(k K) *profile[K, C] {
	pr, ok := p.profiles[k]
	if !ok {
		pr = &profile[K, C]{key: k}
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
	for len(pr.idle) > 0 {
		e := pr.idle[0]
		pr.idle = pr.idle[1:]
		if e.child.Exited() {
			p.discardLocked(e.child)
			continue
		}
		p.busy[e.child] = key
		// While other children are idle, the replacement starts when this
		// one is handed back, so that its start-up does not compete for
		// CPU with the execution it is about to run. An empty profile
		// refills at once.
		if len(pr.idle) == 0 {
			p.refillLocked(pr)
		}
		p.mu.Unlock()
		return e.child, nil
	}
	w := make(chan C, 1)
	pr.waiters = append(pr.waiters, w)
	p.refillLocked(pr)
	p.mu.Unlock()

	timer := time.NewTimer(p.cfg.QueueTimeout)
	defer timer.Stop()
	var err error
	select {
	case c, ok := <-w:
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
	// A child was delivered as we gave up: put it back.
	select {
	case c, ok := <-w:
		if ok {
			delete(p.busy, c)
			pr.idle = append(pr.idle, entry[C]{child: c, born: time.Now()})
		}
	default:
	}
	return zero, err
}

// Done hands back a child taken with Get; the pool discards it and
// starts its replacement.
func (p *Pool[K, C]) Done(c C) {
	p.mu.Lock()
	if key, ok := p.busy[c]; ok {
		delete(p.busy, c)
		p.refillLocked(p.profileLocked(key))
	}
	p.discarded++
	p.mu.Unlock()
	c.Discard()
}

// discardLocked discards c in the background (a process takes ms to
// die); Close waits for it.
func (p *Pool[K, C]) discardLocked(c C) {
	p.discarded++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		c.Discard()
	}()
}

// refillLocked starts spawns until idle + spawning covers the target and
// the waiters, unless the profile is backing off after failures.
func (p *Pool[K, C]) refillLocked(pr *profile[K, C]) {
	if p.closed || time.Now().Before(pr.retryAt) {
		return
	}
	for len(pr.idle)+pr.spawning < p.cfg.TargetIdle+len(pr.waiters) {
		pr.spawning++
		p.wg.Add(1)
		go p.spawn(pr)
	}
}

func (p *Pool[K, C]) spawn(pr *profile[K, C]) {
	defer p.wg.Done()
	select {
	case p.sem <- struct{}{}:
	case <-p.ctx.Done():
		p.mu.Lock()
		pr.spawning--
		p.mu.Unlock()
		return
	}
	start := time.Now()
	c, err := p.cfg.Spawn(p.ctx, pr.key)
	<-p.sem
	took := time.Since(start)

	p.mu.Lock()
	defer p.mu.Unlock()
	pr.spawning--
	if err == nil && p.closed {
		p.discardLocked(c)
		return
	}
	if err != nil {
		p.failed++
		pr.failures++
		p.lastErr = err.Error()
		delay := p.cfg.BackoffMin << min(pr.failures-1, 16)
		if delay > p.cfg.BackoffMax || delay <= 0 {
			delay = p.cfg.BackoffMax
		}
		pr.retryAt = time.Now().Add(delay)
		if !p.closed {
			p.log.Warn("child spawn failed; retrying with backoff", "error", err, "failures", pr.failures, "retry_in", delay)
		}
		return
	}
	p.spawned++
	pr.failures = 0
	pr.retryAt = time.Time{}
	if len(p.latencies) < 256 {
		p.latencies = append(p.latencies, took)
	} else {
		p.latencies[p.latNext] = took
		p.latNext = (p.latNext + 1) % 256
	}
	if len(pr.waiters) > 0 {
		w := pr.waiters[0]
		pr.waiters = pr.waiters[1:]
		p.busy[c] = pr.key
		w <- c
		return
	}
	pr.idle = append(pr.idle, entry[C]{child: c, born: time.Now()})
}

// maintain replaces dead and aged idle children and retries after
// backoff.
func (p *Pool[K, C]) maintain() {
	defer p.wg.Done()
	t := time.NewTicker(p.cfg.CheckInterval)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
		}
		p.mu.Lock()
		now := time.Now()
		for _, pr := range p.profiles {
			kept := pr.idle[:0]
			for _, e := range pr.idle {
				switch {
				case e.child.Exited():
					p.log.Warn("idle child died; replacing it")
					p.discardLocked(e.child)
				case now.Sub(e.born) > p.cfg.MaxAge:
					p.discardLocked(e.child)
				default:
					kept = append(kept, e)
				}
			}
			clear(pr.idle[len(kept):])
			pr.idle = kept
			p.refillLocked(pr)
		}
		p.mu.Unlock()
	}
}

// Stats returns the pool's metrics.
func (p *Pool[K, C]) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Stats{Busy: len(p.busy), Spawned: p.spawned, SpawnFailures: p.failed, Discarded: p.discarded, LastSpawnError: p.lastErr}
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
			close(w)
		}
		pr.waiters = nil
	}
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
			p.mu.Unlock()
			for _, c := range busy {
				c.Discard()
			}
			return fmt.Errorf("pool: close: %d busy children killed: %w", len(busy), ctx.Err())
		case <-tick.C:
		}
	}
}

package pool

import (
	"time"
)

// fillLocked starts the spawns the profiles need, within MaxChildren:
// first for waiters, oldest first across profiles, evicting idle
// children of other profiles when the cap leaves no room; then towards
// each profile's idle target, kept-warm profiles first. Profiles backing
// off after failed spawns and profiles gone cold are skipped.
func (p *Pool[K, C]) fillLocked() {
	if p.closed {
		return
	}
	now := time.Now()
	for {
		pr, uncovered := p.neediestLocked(now)
		if pr == nil {
			break
		}
		if p.live < p.cfg.MaxChildren {
			p.startSpawnLocked(pr)
			continue
		}
		// Full. Children being discarded free their slots soon (and
		// fill again then); evict only for waiters they do not cover.
		if uncovered <= p.freeing || !p.evictOneLocked() {
			break
		}
	}
	for _, pinned := range []bool{true, false} {
		for _, pr := range p.profiles {
			if pr.pinned != pinned || p.coldLocked(pr, now) || now.Before(pr.retryAt) {
				continue
			}
			for p.live < p.cfg.MaxChildren && len(pr.idle)+pr.spawning < p.cfg.TargetIdle+len(pr.waiters) {
				p.startSpawnLocked(pr)
			}
		}
	}
}

// neediestLocked returns the profile whose oldest waiter not covered by
// a spawn in flight has waited longest, and the number of such waiters
// across all profiles.
func (p *Pool[K, C]) neediestLocked(now time.Time) (best *profile[K, C], uncovered int) {
	var since time.Time
	for _, pr := range p.profiles {
		if pr.spawning >= len(pr.waiters) || now.Before(pr.retryAt) {
			continue
		}
		uncovered += len(pr.waiters) - pr.spawning
		if w := pr.waiters[pr.spawning]; best == nil || w.since.Before(since) {
			best, since = pr, w.since
		}
	}
	return best, uncovered
}

// evictOneLocked discards one idle child to make room under MaxChildren:
// from a profile without waiters, preferring profiles not kept warm,
// then the one used least recently. It reports whether it found one.
func (p *Pool[K, C]) evictOneLocked() bool {
	var victim *profile[K, C]
	for _, pr := range p.profiles {
		if len(pr.idle) == 0 || len(pr.waiters) > 0 {
			continue
		}
		if victim == nil || (victim.pinned && !pr.pinned) ||
			(victim.pinned == pr.pinned && pr.lastUsed.Before(victim.lastUsed)) {
			victim = pr
		}
	}
	if victim == nil {
		return false
	}
	c := victim.idle[0].child
	victim.idle = victim.idle[1:]
	p.evicted++
	p.discardLocked(c)
	return true
}

// coldLocked reports whether pr is a profile not kept warm that went
// unused for IdleTTL: it is not refilled, and maintain drops it.
func (p *Pool[K, C]) coldLocked(pr *profile[K, C], now time.Time) bool {
	return !pr.pinned && now.Sub(pr.lastUsed) > p.cfg.IdleTTL
}

func (p *Pool[K, C]) startSpawnLocked(pr *profile[K, C]) {
	pr.spawning++
	p.live++
	p.wg.Add(1)
	go p.spawn(pr)
}

// freedLocked accounts for a discarded child whose slot is free again.
func (p *Pool[K, C]) freedLocked() {
	p.freeing--
	p.live--
	p.fillLocked()
}

// discardLocked discards c in the background (a process takes ms to
// die); its slot frees when Discard returns. Close waits for it.
func (p *Pool[K, C]) discardLocked(c C) {
	p.discarded++
	p.freeing++
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		c.Discard()
		p.mu.Lock()
		p.freedLocked()
		p.mu.Unlock()
	}()
}

// spawn runs one Spawn for pr. A profile with spawns in flight is never
// dropped, so pr stays the profile of its key.
func (p *Pool[K, C]) spawn(pr *profile[K, C]) {
	defer p.wg.Done()
	select {
	case p.sem <- struct{}{}:
	case <-p.ctx.Done():
		p.mu.Lock()
		pr.spawning--
		p.live--
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
		p.live--
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
		// The freed slot may serve another profile's waiter.
		p.fillLocked()
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
		pr.busy++
		w.ch <- c
		return
	}
	pr.idle = append(pr.idle, entry[C]{child: c, born: time.Now()})
	// At the cap, another profile's waiter may need this slot more.
	p.fillLocked()
}

// maintain replaces dead and aged idle children, evicts the idle
// children of profiles gone cold and drops their state, and retries
// after backoff.
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
		for k, pr := range p.profiles {
			cold := p.coldLocked(pr, now)
			kept := pr.idle[:0]
			for _, e := range pr.idle {
				switch {
				case e.child.Exited():
					p.log.Warn("idle child died; replacing it")
					p.discardLocked(e.child)
				case cold:
					p.evicted++
					p.discardLocked(e.child)
				case now.Sub(e.born) > p.cfg.MaxAge:
					p.discardLocked(e.child)
				default:
					kept = append(kept, e)
				}
			}
			clear(pr.idle[len(kept):])
			pr.idle = kept
			if cold && pr.spawning == 0 && pr.busy == 0 && len(pr.waiters) == 0 {
				delete(p.profiles, k)
			}
		}
		p.fillLocked()
		p.mu.Unlock()
	}
}

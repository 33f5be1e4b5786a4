package pool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeChild stands in for a process.
type fakeChild struct {
	id        int
	key       string
	s         *spawner
	dead      atomic.Bool
	discarded atomic.Int32
}

func (c *fakeChild) Exited() bool { return c.dead.Load() }

// Discard takes as long as the spawner's discardDelay, like a process
// being killed and reaped.
func (c *fakeChild) Discard() {
	if c.discarded.Add(1) == 1 {
		time.Sleep(c.s.discardDelay)
		c.s.alive.Add(-1)
	}
}

type spawner struct {
	mu       sync.Mutex
	n        int
	children []*fakeChild
	fail     atomic.Bool
	delay    time.Duration
	inFlight atomic.Int32
	maxSeen  atomic.Int32
	// alive counts children from the start of their spawn until their
	// first Discard returns, as MaxChildren counts them.
	alive        atomic.Int32
	maxAlive     atomic.Int32
	discardDelay time.Duration
}

func raise(m *atomic.Int32, v int32) {
	for {
		old := m.Load()
		if v <= old || m.CompareAndSwap(old, v) {
			return
		}
	}
}

func (s *spawner) spawn(ctx context.Context, key string) (*fakeChild, error) {
	raise(&s.maxSeen, s.inFlight.Add(1))
	defer s.inFlight.Add(-1)
	raise(&s.maxAlive, s.alive.Add(1))
	select {
	case <-time.After(s.delay):
	case <-ctx.Done():
		s.alive.Add(-1)
		return nil, ctx.Err()
	}
	if s.fail.Load() {
		s.alive.Add(-1)
		return nil, errors.New("handshake failed: bad cookie")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	c := &fakeChild{id: s.n, key: key, s: s}
	s.children = append(s.children, c)
	return c, nil
}

func newPool(t *testing.T, s *spawner, mod func(*Config[string, *fakeChild])) *Pool[string, *fakeChild] {
	t.Helper()
	cfg := Config[string, *fakeChild]{Spawn: s.spawn, Keys: []string{"a"}, TargetIdle: 2, SpawnConcurrency: 2,
		QueueTimeout: time.Second, CheckInterval: 10 * time.Millisecond, BackoffMin: 10 * time.Millisecond, BackoffMax: 50 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHammer: P goroutines x N gets; every child is handed out once, the
// spawn concurrency bound holds, and everything is discarded at the end.
func TestHammer(t *testing.T) {
	s := &spawner{delay: time.Millisecond}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) { c.SpawnConcurrency = 3 })
	P, N := 8, 200
	if testing.Short() {
		N = 50
	}
	seen := sync.Map{}
	var wg sync.WaitGroup
	for g := 0; g < P; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			key := []string{"a", "b"}[g%2]
			for i := 0; i < N; i++ {
				c, err := p.Get(context.Background(), key)
				if err != nil {
					t.Error(err)
					return
				}
				if _, dup := seen.LoadOrStore(c, true); dup {
					t.Errorf("child %d handed out twice", c.id)
				}
				p.Done(c)
			}
		}(g)
	}
	wg.Wait()
	if m := s.maxSeen.Load(); m > 3 {
		t.Fatalf("%d spawns in flight, bound 3", m)
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.children {
		if c.discarded.Load() == 0 {
			t.Fatalf("child %d never discarded", c.id)
		}
	}
}

func TestProfilesAreSeparate(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, nil)
	eventually(t, "warm profile a", func() bool { return p.Stats().Idle == 2 })
	c, err := p.Get(context.Background(), "b")
	if err != nil {
		t.Fatal(err)
	}
	p.Done(c)
	eventually(t, "warm profile b", func() bool { return p.Stats().Idle == 4 })
}

func TestDeadIdleChildReplaced(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, nil)
	eventually(t, "warm", func() bool { return p.Stats().Idle == 2 })
	s.mu.Lock()
	victim := s.children[0]
	s.mu.Unlock()
	victim.dead.Store(true)
	eventually(t, "replacement", func() bool { st := p.Stats(); return st.Idle == 2 && st.Spawned == 3 })
	for i := 0; i < 2; i++ {
		c, err := p.Get(context.Background(), "a")
		if err != nil || c == victim {
			t.Fatalf("got %v %v", c, err)
		}
		p.Done(c)
	}
}

func TestMaxAge(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) { c.MaxAge = 30 * time.Millisecond })
	eventually(t, "aged children replaced", func() bool { return p.Stats().Spawned >= 6 })
}

func TestExhausted(t *testing.T) {
	s := &spawner{delay: time.Hour}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) { c.QueueTimeout = 50 * time.Millisecond })
	start := time.Now()
	_, err := p.Get(context.Background(), "a")
	if !errors.Is(err, ErrExhausted) || time.Since(start) < 50*time.Millisecond {
		t.Fatalf("want ErrExhausted after the queue timeout, got %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Get(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

func TestFailingSpawnBacksOff(t *testing.T) {
	s := &spawner{}
	s.fail.Store(true)
	p := newPool(t, s, nil)
	time.Sleep(300 * time.Millisecond)
	st := p.Stats()
	if st.SpawnFailures < 3 || st.LastSpawnError == "" {
		t.Fatalf("want repeated failures with a reason, got %+v", st)
	}
	// Backoff caps at 50ms: over 300ms, far fewer attempts than a busy loop.
	if st.SpawnFailures > 40 {
		t.Fatalf("%d failures in 300ms: no backoff", st.SpawnFailures)
	}
	s.fail.Store(false)
	eventually(t, "recovery", func() bool { return p.Stats().Idle == 2 })
}

func TestCloseDrains(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, nil)
	eventually(t, "warm", func() bool { return p.Stats().Idle == 2 })
	busy, err := p.Get(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(50 * time.Millisecond); p.Done(busy) }()
	if err := p.Close(context.Background()); err != nil {
		t.Fatalf("close waiting for the busy child: %v", err)
	}
	// A busy child never handed back is discarded at the deadline.
	p2 := newPool(t, s, nil)
	stuck, err := p2.Get(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := p2.Close(ctx); err == nil || stuck.discarded.Load() == 0 {
		t.Fatalf("want the stuck child discarded and an error, got %v", err)
	}
	if _, err := p2.Get(context.Background(), "a"); !errors.Is(err, ErrClosed) {
		t.Fatalf("get after close: %v", err)
	}
}

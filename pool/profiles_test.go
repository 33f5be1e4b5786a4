package pool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestHammerCap: P goroutines x N gets over more keys than the cap can
// keep warm. Live children never exceed MaxChildren (sampled from Stats
// and counted by the fake spawner), every child goes to one caller of
// its own key, and a Get either succeeds or ends with ErrExhausted.
func TestHammerCap(t *testing.T) {
	const maxChildren = 5
	s := &spawner{delay: time.Millisecond, discardDelay: 200 * time.Microsecond}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) {
		c.MaxChildren = maxChildren
		c.SpawnConcurrency = 3
		c.QueueTimeout = 2 * time.Second
	})
	P, N := 8, 200
	if testing.Short() {
		N = 50
	}
	stop := make(chan struct{})
	var sampled, overCap atomic.Int32
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if st := p.Stats(); st.Live > maxChildren {
				overCap.Store(int32(st.Live))
			}
			sampled.Add(1)
			time.Sleep(100 * time.Microsecond)
		}
	}()
	seen := sync.Map{}
	var ok, exhausted atomic.Int32
	var wg sync.WaitGroup
	for g := 0; g < P; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < N; i++ {
				key := fmt.Sprintf("k%d", (g+i)%7)
				c, err := p.Get(context.Background(), key)
				if errors.Is(err, ErrExhausted) {
					exhausted.Add(1)
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				ok.Add(1)
				if _, dup := seen.LoadOrStore(c, true); dup {
					t.Errorf("child %d handed out twice", c.id)
				}
				if c.key != key {
					t.Errorf("asked for %s, got a child of %s", key, c.key)
				}
				p.Done(c)
			}
		}(g)
	}
	wg.Wait()
	close(stop)
	st := p.Stats()
	t.Logf("%d ok, %d exhausted; %d stats samples; max alive %d; %+v", ok.Load(), exhausted.Load(), sampled.Load(), s.maxAlive.Load(), st)
	if v := overCap.Load(); v != 0 {
		t.Fatalf("Stats().Live reached %d, cap %d", v, maxChildren)
	}
	if m := s.maxAlive.Load(); m > maxChildren {
		t.Fatalf("%d children alive at once, cap %d", m, maxChildren)
	}
	if ok.Load() == 0 {
		t.Fatal("no Get succeeded")
	}
	if err := p.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a := s.alive.Load(); a != 0 {
		t.Fatalf("%d children alive after Close", a)
	}
}

// TestEvictForRoom: at the cap, a Get for a new key evicts an idle child
// of a kept-warm key instead of waiting out the queue timeout.
func TestEvictForRoom(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) { c.MaxChildren = 2 })
	eventually(t, "warm", func() bool { return p.Stats().Idle == 2 })
	c, err := p.Get(context.Background(), "b")
	if err != nil {
		t.Fatal(err)
	}
	if c.key != "b" {
		t.Fatalf("got a child of %s", c.key)
	}
	st := p.Stats()
	if st.Evicted == 0 || st.Live > 2 || s.maxAlive.Load() > 2 {
		t.Fatalf("want an eviction and at most 2 alive, got %+v, max alive %d", st, s.maxAlive.Load())
	}
	p.Done(c)
}

// TestCapExhausted: with every slot busy there is nothing to evict; a Get
// fails after the queue timeout, and succeeds once a child is handed
// back.
func TestCapExhausted(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) {
		c.TargetIdle = 1
		c.MaxChildren = 2
		c.QueueTimeout = 100 * time.Millisecond
	})
	a, err := p.Get(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.Get(context.Background(), "b")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := p.Get(context.Background(), "c"); !errors.Is(err, ErrExhausted) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("want ErrExhausted after the queue timeout, got %v after %v", err, time.Since(start))
	}
	p.Done(a)
	c, err := p.Get(context.Background(), "c")
	if err != nil {
		t.Fatalf("after a child was handed back: %v", err)
	}
	if m := s.maxAlive.Load(); m > 2 {
		t.Fatalf("%d children alive at once, cap 2", m)
	}
	p.Done(b)
	p.Done(c)
}

// TestColdProfileDropped: a key not kept warm loses its idle children
// and its state after IdleTTL; the kept-warm key keeps its children.
func TestColdProfileDropped(t *testing.T) {
	s := &spawner{}
	p := newPool(t, s, func(c *Config[string, *fakeChild]) { c.IdleTTL = 50 * time.Millisecond })
	for i := 0; i < 3; i++ {
		c, err := p.Get(context.Background(), fmt.Sprintf("k%d", i))
		if err != nil {
			t.Fatal(err)
		}
		p.Done(c)
	}
	eventually(t, "cold profiles dropped", func() bool {
		st := p.Stats()
		return st.Profiles == 1 && st.Idle == 2 && st.Live == 2 && st.Spawning == 0
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.children {
		if want := c.key != "a"; (c.discarded.Load() > 0) != want {
			t.Errorf("child %d of %s: discarded %v, want %v", c.id, c.key, c.discarded.Load() > 0, want)
		}
	}
	if a := s.alive.Load(); a != 2 {
		t.Fatalf("%d children alive, want the 2 of the kept-warm key", a)
	}
}

func TestMaxChildrenConfig(t *testing.T) {
	s := &spawner{}
	_, err := New(Config[string, *fakeChild]{Spawn: s.spawn, Keys: []string{"a", "b", "c"}, TargetIdle: 2, MaxChildren: 4})
	if err == nil {
		t.Fatal("want an error: 3 kept-warm keys x 2 idle do not fit under 4")
	}
	if d := DefaultMaxChildren(2, 1); d < 8 {
		t.Fatalf("DefaultMaxChildren(2, 1) = %d, want at least 4 x 2", d)
	}
	if d := DefaultMaxChildren(2, 5); d < 12 {
		t.Fatalf("DefaultMaxChildren(2, 5) = %d, want room for one more profile than the 5 kept warm", d)
	}
}

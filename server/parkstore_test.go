package server

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestStateStores: both stores keep a state per tenant and id, refuse
// past a tenant's caps (another tenant unaffected), forget a state past
// its TTL, and of two concurrent Takes of one state exactly one gets it.
func TestStateStores(t *testing.T) {
	ctx := context.Background()
	limits := StoreLimits{MaxStates: 2, MaxBytes: 10, TTL: time.Hour}
	dir := t.TempDir()
	ds, err := NewDirStore(dir, limits)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]StateStore{"dir": ds, "memory": NewMemStore(limits)} {
		t.Run(name, func(t *testing.T) {
			if err := s.Put(ctx, "a", "x", []byte("1234")); err != nil {
				t.Fatal(err)
			}
			if err := s.Put(ctx, "a", "x", []byte("12345")); err != nil {
				t.Fatalf("replacing a state: %v", err)
			}
			if err := s.Put(ctx, "a", "y", []byte("123456")); !errors.Is(err, ErrStoreFull) {
				t.Errorf("over the tenant's bytes: %v", err)
			}
			s.Put(ctx, "a", "y", []byte("1"))
			if err := s.Put(ctx, "a", "z", []byte("1")); !errors.Is(err, ErrStoreFull) {
				t.Errorf("over the tenant's count: %v", err)
			}
			if err := s.Put(ctx, "b", "x", []byte("123456789")); err != nil {
				t.Errorf("another tenant: %v", err)
			}
			if b, err := s.Get(ctx, "a", "x"); err != nil || string(b) != "12345" {
				t.Errorf("get: %q %v", b, err)
			}
			if _, err := s.Get(ctx, "b", "y"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("another tenant's id: %v", err)
			}
			if n, b := s.Stats(); n != 3 || b != 15 {
				t.Errorf("stats %d states, %d bytes; want 3, 15", n, b)
			}
			var wg sync.WaitGroup
			got := make(chan []byte, 8)
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if b, err := s.Take(ctx, "a", "x"); err == nil {
						got <- b
					}
				}()
			}
			wg.Wait()
			close(got)
			if n := len(got); n != 1 {
				t.Errorf("%d concurrent takes got the state, want 1", n)
			}
		})
	}
	// Past the TTL a state is gone (the directory store's clock is the
	// file's mtime).
	p := filepath.Join(dir, "61", "y.state")
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := ds.Get(ctx, "a", "y"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an expired state: %v", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the expired state's file is still there: %v", err)
	}
}

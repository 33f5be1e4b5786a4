package supervisor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCompileGate: one filler at a time while the cache is cold; a
// failed filler hands the turn to the next; a waiter whose ctx ends gives
// up; once a filler succeeds everyone passes at once.
func TestCompileGate(t *testing.T) {
	dir := t.TempDir()
	g := newCompileGate(dir)
	if g.warm.Load() {
		t.Fatal("empty dir taken for a warm cache")
	}
	first, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.enter(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second filler got in while the first held the turn: %v", err)
	}
	got := make(chan func(bool), 1)
	go func() {
		d, _ := g.enter(context.Background())
		got <- d
	}()
	first(false) // the first child failed: the next takes over
	var second func(bool)
	select {
	case second = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the turn did not pass on after a failed filler")
	}
	second(true)
	if !g.warm.Load() {
		t.Fatal("not warm after a successful filler")
	}
	for i := 0; i < 3; i++ {
		d, err := g.enter(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		d(true)
	}

	// A directory with a compiled module in wazero's layout starts warm.
	sub := filepath.Join(dir, "wazero-v0-amd64-linux")
	os.MkdirAll(sub, 0o700)
	os.WriteFile(filepath.Join(sub, "0123abcd"), []byte("x"), 0o600)
	if !newCompileGate(dir).warm.Load() {
		t.Error("a cache holding a module was taken for a cold one")
	}
}

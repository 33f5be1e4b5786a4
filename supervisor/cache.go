package supervisor

import (
	"context"
	"io/fs"
	"path/filepath"
	"sync/atomic"
)

// compileGate lets one child fill a cold compilation cache before others
// start. A child that finds the cache cold compiles the QuickJS module
// itself: ~300-500 ms of CPU and a 43-48 MiB peak. A pool filling from a
// cold cache would have every starting child do that at once; behind the
// gate the first compiles and the rest load its result (~35 ms each).
type compileGate struct {
	warm atomic.Bool
	// turn has room for one: the spawn holding it is filling the cache.
	turn chan struct{}
}

// newCompileGate returns a gate that is open when dir already holds a
// compiled module.
func newCompileGate(dir string) *compileGate {
	g := &compileGate{turn: make(chan struct{}, 1)}
	g.warm.Store(cacheHasModule(dir))
	return g
}

// enter waits until the cache is warm or this caller is the one to fill
// it. done must be called with whether the caller's child came up (its
// compiled module is then in the cache).
func (g *compileGate) enter(ctx context.Context) (done func(ready bool), err error) {
	if g.warm.Load() {
		return func(bool) {}, nil
	}
	select {
	case g.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if g.warm.Load() {
		<-g.turn
		return func(bool) {}, nil
	}
	return func(ready bool) {
		if ready {
			g.warm.Store(true)
		}
		<-g.turn
	}, nil
}

// cacheHasModule reports whether wazero's cache under dir holds any
// compiled module (wazero keeps them in a wazero-VERSION-ARCH-OS
// directory, so a new wazero version starts cold).
func cacheHasModule(dir string) bool {
	dirs, _ := filepath.Glob(filepath.Join(dir, "wazero-*"))
	for _, d := range dirs {
		found := false
		filepath.WalkDir(d, func(_ string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() {
				found = true
				return fs.SkipAll
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}

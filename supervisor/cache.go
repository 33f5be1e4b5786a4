package supervisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/wardenhq/warden/ipc"
)

// cacheState is the compilation cache as the compile child left it.
type cacheState struct {
	// digests is the SHA-256 of every file in the cache, by path relative
	// to it: each child refuses to start on a cache that differs.
	digests map[string]string
	files   int
	bytes   int64
}

// compileGate makes the first spawn fill the compilation cache, with a
// compile child, while the others wait: a pool filling from a cold cache
// would otherwise have every starting child compile the module at once
// (hundreds of ms of CPU and a large peak each: BENCHMARKS.md), and
// children must not write the cache at all.
type compileGate struct {
	state atomic.Pointer[cacheState]
	// turn has room for one: the spawn holding it is filling the cache.
	turn chan struct{}
}

func newCompileGate() *compileGate { return &compileGate{turn: make(chan struct{}, 1)} }

// wait returns the cache's state, calling fill to make it if no caller
// has yet; one caller fills at a time, and a failed fill leaves the turn
// to the next caller.
func (g *compileGate) wait(ctx context.Context, fill func(context.Context) (*cacheState, error)) (*cacheState, error) {
	if st := g.state.Load(); st != nil {
		return st, nil
	}
	select {
	case g.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("supervisor: waiting for the compile child: %w", ctx.Err())
	}
	defer func() { <-g.turn }()
	if st := g.state.Load(); st != nil {
		return st, nil
	}
	st, err := fill(ctx)
	if err != nil {
		return nil, err
	}
	g.state.Store(st)
	return st, nil
}

// fillCache runs the compile child, then makes what it wrote readable
// (never writable) by the children and records its digests.
//
// The compile child runs once per Supervisor even when the cache looks
// warm: it then loads the module from the cache (a process start, tens
// of ms) instead of compiling it, and it guarantees that the entry the
// children need is there. A cache filled by another configuration (the
// in-process engine of `warden run --in-process` writes its own entry)
// would otherwise look warm and leave every child to compile.
func (s *Supervisor) fillCache(ctx context.Context) (*cacheState, error) {
	if err := s.runCompileChild(ctx); err != nil {
		return nil, err
	}
	sums, err := checkCacheTree(s.cfg.CacheDir, true, true)
	if err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		return nil, &CacheError{s.cfg.CacheDir, "the compile child exited without writing a compiled module"}
	}
	st := &cacheState{digests: sums, files: len(sums)}
	for rel := range sums {
		if fi, err := os.Lstat(filepath.Join(s.cfg.CacheDir, rel)); err == nil {
			st.bytes += fi.Size()
		}
	}
	return st, nil
}

// runCompileChild runs the child binary in compile-only mode, as the
// supervisor's own uid and before any untrusted code exists: it compiles
// the QuickJS module into the cache (or loads it from there) and exits.
func (s *Supervisor) runCompileChild(ctx context.Context) error {
	bound := max(s.cfg.StartTimeout, compileMinTimeout)
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	env, err := ipc.ChildConfig{
		CompileOnly: true,
		MemoryBytes: s.cfg.Defaults.MemoryBytes,
		CacheDir:    s.cfg.CacheDir,
		Harden:      ipc.Hardening{NoNewPrivs: true},
	}.Env()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, s.cfg.Binary, s.cfg.ChildArgs...)
	cmd.Args[0] = "warden-compile"
	cmd.Env = append([]string{env}, ipc.ChildEnv()...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	var stderr tailBuffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("supervisor: the compile child did not fill the compilation cache %s within %v (Config.StartTimeout, at least %v)", s.cfg.CacheDir, bound, compileMinTimeout)
	}
	if err != nil {
		return fmt.Errorf("supervisor: the compile child could not fill the compilation cache %s: %w: %s", s.cfg.CacheDir, err, strings.TrimSpace(stderr.String()))
	}
	s.log.Info("compile child filled the compilation cache", "dir", s.cfg.CacheDir, "took", time.Since(start))
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		// It succeeded but had something to say: no heap snapshot, say.
		s.log.Warn("compile child", "stderr", msg)
	}
	return nil
}

// compileMinTimeout is the least time the compile child gets, whatever
// Config.StartTimeout says. Compiling QuickJS takes about 0.3 s of CPU
// here (README) but over 10 s on a slow or emulated machine (the VM
// lane's guests), and a compile killed part-way starts over from nothing
// at the next spawn: a bound below what the machine needs is never met,
// and no child ever starts. (A variable for the test of a hung compile
// child.)
var compileMinTimeout = time.Minute

// tailBuffer keeps the last 2 KiB written to it: the compile child's
// stderr, for the error message.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = t.b[len(t.b)-2048:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(bytes.ToValidUTF8(t.b, nil)) }

// CacheInfo describes the compilation cache, for `warden doctor`.
type CacheInfo struct {
	Dir string
	// Ready is true once the compile child has filled the cache.
	Ready bool
	// Files and Bytes are what the compile child left, every byte of
	// which each child checks against its SHA-256 before loading.
	Files int
	Bytes int64
}

// Cache describes the compilation cache.
func (s *Supervisor) Cache() CacheInfo {
	c := CacheInfo{Dir: s.cfg.CacheDir}
	if st := s.compile.state.Load(); st != nil {
		c.Ready, c.Files, c.Bytes = true, st.files, st.bytes
	}
	return c
}

package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wardenhq/warden/ipc"
)

// The compilation cache's trust chain, end to end.
//
// The cache holds native code (wazero's compiled QuickJS module) that
// every child maps executable, and the heap snapshot every child maps as
// its memory. So only the supervisor's uid may ever have written it, and
// only a process running trusted code: children read it, check every
// byte they load against what the supervisor recorded, and never write
// it. The chain, step by step, with where each step lives:
//
//  1. Where (cachedir.go): Config.CacheDir, or DefaultCacheDir;
//     resolveCacheDir resolves it at New and calls prepareCacheDir.
//  2. A place only the supervisor can change (prepareCacheDir, here):
//     every directory from / down is searchable by the children's uid,
//     owned by root or the supervisor's uid and not writable by group or
//     others unless sticky (whoever may write a parent could swap the
//     cache for their own); the cache directory itself is a real
//     directory of the supervisor's uid, 0755, and whatever is already
//     in it passes checkCacheTree. Anything else is a *CacheError
//     (ErrUnsafeCache).
//  3. Written once, by trusted code (compileGate, fillCache,
//     runCompileChild, here): the first spawn runs the child binary as a
//     compile child (ipc.ChildConfig.CompileOnly, ipc/childconfig.go),
//     as the supervisor's uid and before any untrusted code exists,
//     while every other spawn waits (once per Supervisor, even on a warm
//     cache: fillCache says why). On the child's side
//     (child/cache.go, compileOnly and newEngine) it builds the same
//     engine children build: wazero compiles the module into a
//     directory named for this build's wazero (engine.CacheFlavour,
//     child/engine/flavour.go), and engine.WriteSnapshot
//     (child/engine/snapshot_write.go) writes the heap snapshot under
//     engine.SnapshotFile, a name holding its key (the module's and the
//     prelude's SHA-256, the flavour, the stack limit, the format:
//     snapshotKey, child/engine/snapshot.go).
//  4. Sealed (fillCache, checkCacheTree, here): every entry must be a
//     directory or a regular file of the supervisor's uid not writable
//     by group or others, checked through a descriptor opened without
//     following links; directories become 0755 and files 0644 (wazero
//     makes them 0700 and 0600), and each file's SHA-256
//     (ipc.CacheDigest) is recorded in cacheState.digests.
//  5. Carried (processSpawner.buildCommand, spawner.go): every child gets
//     the digests in ipc.ChildConfig.CacheDigests, in its environment,
//     and, when sealFor (here) could seal them (sealed.go), the files the
//     compile child reported a serving child reads as sealed memory
//     files, checked against their digests as they were copied, passed
//     as descriptors (ChildConfig.Sealed, SealedView). A child checks
//     only their seals (child/cache.go openSealed) and skips steps 6 and
//     7's hashing for them.
//  6. Checked before use, in the child (child/child.go prepare, then
//     child/cache.go verifyCache): the cache must hold exactly the
//     recorded files of its own flavour, each with its digest, opened
//     O_NOFOLLOW; otherwise the child refuses to start. Its entry being
//     there, the engine only reads the cache. (The snapshot lies outside
//     the flavour's directory: it is step 7's.)
//  7. The snapshot, checked as it is mapped (child/cache.go newEngine
//     passes its path and recorded digest as engine.Config.Snapshot and
//     SnapshotSHA256; restoreVM, child/engine/snapshot_restore.go,
//     hashes it through the mapping and checks its header's key, its
//     size and its pages against the profile's cap). A child without a
//     recorded snapshot runs init instead.
//  8. Explained (processSpawner.startChild, spawner.go, and
//     cacheDigestsMatch, here): when a child fails to start, the
//     supervisor re-reads the cache and says what changed since step 4.
//  9. Reported: Supervisor.Cache (CacheInfo), for warden doctor.

// ErrUnsafeCache is matched (errors.Is) by every *CacheError: the
// compilation cache holds native code every child maps executable, so
// only the supervisor's uid may ever have written it, and the supervisor
// refuses a cache anyone else could have changed.
var ErrUnsafeCache = errors.New("supervisor: unsafe compilation cache")

// CacheError names a path of the compilation cache the supervisor
// refuses, and why.
type CacheError struct {
	Path   string
	Reason string
}

func (e *CacheError) Error() string {
	return fmt.Sprintf("supervisor: compilation cache: %s: %s", e.Path, e.Reason)
}

// Is makes every CacheError match ErrUnsafeCache.
func (e *CacheError) Is(target error) bool { return target == ErrUnsafeCache }

// cacheState is the compilation cache as the compile child left it.
type cacheState struct {
	// digests is the SHA-256 of every file in the cache, by path relative
	// to it: each child refuses to start on a cache that differs.
	digests map[string]string
	files   int
	bytes   int64
	// sealed is what children read of it, in sealed memory files (nil:
	// they read and hash the files on disk; sealedNote says why).
	sealed     *sealedCache
	sealedNote string
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
func (sp *processSpawner) fillCache(ctx context.Context) (*cacheState, error) {
	report, err := sp.runCompileChild(ctx)
	if err != nil {
		return nil, err
	}
	sums, err := checkCacheTree(sp.cfg.CacheDir, true, true)
	if err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		return nil, &CacheError{sp.cfg.CacheDir, "the compile child exited without writing a compiled module"}
	}
	st := &cacheState{digests: sums, files: len(sums)}
	for rel := range sums {
		if fi, err := os.Lstat(filepath.Join(sp.cfg.CacheDir, rel)); err == nil {
			st.bytes += fi.Size()
		}
	}
	sp.sealFor(st, report)
	return st, nil
}

// sealCacheFiles is sealCache; a variable so that tests can make sealing
// fail as it does on a machine without sealed memory files.
var sealCacheFiles = sealCache

// sealFor seals the files the compile child's report names into memory
// files for every child. When that fails (no memfd_create here, a report
// that cannot be read, a file that changed), children read and hash the
// files on disk, as before, and st.sealedNote says why.
func (sp *processSpawner) sealFor(st *cacheState, report []byte) {
	rels, err := parseCompileReport(report)
	if err == nil {
		st.sealed, err = sealCacheFiles(sp.cfg.CacheDir, st.digests, rels)
	}
	if err != nil {
		st.sealedNote = fmt.Sprintf("not sealed (%v): every child reads the cache files from disk and checks their SHA-256", err)
		sp.log.Warn("compilation cache: no sealed memory files", "error", err.Error())
	}
}

// runCompileChild runs the child binary in compile-only mode, as the
// supervisor's own uid and before any untrusted code exists: it compiles
// the QuickJS module into the cache (or loads it from there) and exits.
func (sp *processSpawner) runCompileChild(ctx context.Context) (report []byte, err error) {
	bound := max(sp.cfg.StartTimeout, compileMinTimeout)
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	if sp.registry != nil {
		if err := writeRegistry(sp.cfg.CacheDir, sp.registry); err != nil {
			return nil, err
		}
	}
	env, err := ipc.ChildConfig{
		CompileOnly: true,
		MemoryBytes: sp.cfg.Defaults.MemoryBytes,
		CacheDir:    sp.cfg.CacheDir,
		Registry:    registryRef(sp.registry),
		Harden:      ipc.Hardening{NoNewPrivs: true},
	}.Env()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, sp.cfg.Binary, sp.cfg.ChildArgs...)
	cmd.Args[0] = "warden-compile"
	cmd.Env = append([]string{env}, ipc.ChildEnv()...)
	cmd.Dir = "/"
	cmd.SysProcAttr = procAttr(true, 0)
	cmd.Cancel = func() error { return killGroupOf(cmd.Process.Pid) }
	cmd.WaitDelay = time.Second
	var stderr tailBuffer
	cmd.Stderr = &stderr
	stdout := &limitedBuffer{max: ipc.MaxCompileReport}
	cmd.Stdout = stdout
	start := time.Now()
	err = cmd.Run()
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("supervisor: the compile child did not fill the compilation cache %s within %v (Config.StartTimeout, at least %v)", sp.cfg.CacheDir, bound, compileMinTimeout)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == compileExitNoWasm {
		return nil, noWasmError(sp.cfg.CacheDir)
	}
	if err != nil {
		return nil, fmt.Errorf("supervisor: the compile child could not fill the compilation cache %s: %w: %s", sp.cfg.CacheDir, err, logText(stderr.String()))
	}
	sp.log.Info("compile child filled the compilation cache", "dir", sp.cfg.CacheDir, "took", time.Since(start))
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		// It succeeded but had something to say: no heap snapshot, say.
		sp.log.Warn("compile child", "stderr", msg)
	}
	return stdout.b, nil
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

// limitedBuffer keeps the first max bytes written to it: the compile
// child's report, which is all the supervisor reads of its stdout.
type limitedBuffer struct {
	b   []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// CacheInfo describes the compilation cache, for `warden doctor`.
type CacheInfo struct {
	Dir string
	// Ready is true once the compile child has filled the cache.
	Ready bool
	// Files and Bytes are what the compile child left, every byte of
	// which is checked against its SHA-256 before a child loads it:
	// once, by the supervisor, for the files it sealed; by each child
	// for the others.
	Files int
	Bytes int64
	// SealedFiles and SealedBytes are the files children read from
	// sealed memory files (the compiled module, the heap snapshot, the
	// Intl pack); SealedNote says why there are none, once Ready.
	SealedFiles int
	SealedBytes int64
	SealedNote  string
	// Child is what children run: the lean child from a sealed memory
	// file, or a binary, and why not the lean child.
	Child string
}

// cacheInfo describes the compilation cache (Supervisor.Cache).
func (sp *processSpawner) cacheInfo() CacheInfo {
	c := CacheInfo{Dir: sp.cfg.CacheDir, Child: sp.childInfo()}
	if st := sp.compile.state.Load(); st != nil {
		c.Ready, c.Files, c.Bytes = true, st.files, st.bytes
		c.SealedNote = st.sealedNote
		if st.sealed != nil {
			c.SealedFiles, c.SealedBytes = len(st.sealed.files), st.sealed.bytes
		}
	}
	return c
}

// cacheDigestsMatch re-reads the cache and says how it differs from want
// (nil when it does not).
func cacheDigestsMatch(cache string, want map[string]string) error {
	got, err := checkCacheTree(cache, false, true)
	if err != nil {
		return err
	}
	var diffs []string
	for rel, sum := range got {
		switch w, ok := want[rel]; {
		case !ok:
			diffs = append(diffs, rel+" is not one the supervisor's compile child wrote")
		case w != sum:
			diffs = append(diffs, rel+" does not match the digest recorded after compilation")
		}
	}
	for rel := range want {
		if _, ok := got[rel]; !ok {
			diffs = append(diffs, rel+" is missing")
		}
	}
	if diffs == nil {
		return nil
	}
	return &CacheError{cache, strings.Join(diffs, "; ")}
}

// logText is the compile child's stderr for an error message: its JSON
// log records as "msg: error" lines (no JSON escaping in the way of the
// reader), other lines as they are.
func logText(stderr string) string {
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var rec struct{ Msg, Error string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg != "" {
			line = rec.Msg
			if rec.Error != "" {
				line += ": " + rec.Error
			}
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "; ")
}

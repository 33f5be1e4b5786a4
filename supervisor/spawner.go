package supervisor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/internal/registry"
	"github.com/wardenhq/warden/ipc"
)

// processSpawner makes children: everything a child is before it runs a
// request. It owns the uids children take (user.go), their cgroups
// (cgroups.go), their namespaces (namespaces.go) and hardening
// (layers.go), the compile child and the compilation cache with its
// trust chain (cache.go, cachedir.go), the child's environment, and the
// start-up stats (startup.go). Its spawn method is the pool's Spawn; the
// request path holds it as a childSpawner.
type processSpawner struct {
	cfg Config
	log *slog.Logger
	// wire is the largest message each way between the supervisor and a
	// child, derived from cfg.Caps and cfg.MaxInputBytes.
	wire ipc.WireCaps

	cgroups    cgroupManager // nil: no cgroup layer
	groups     *groupCache   // the emptied groups kept for reuse (nil: none)
	cgroupNote string        // why the cgroup layer is missing
	userNote   string        // how children are made unprivileged, or why not
	uids       *uidRange     // nil: children keep the supervisor's user
	nsFlags    uintptr       // the namespaces children get
	nsNote     string        // which namespaces are missing, and why
	spawnSeq   atomic.Uint64 // names the children's cgroups
	startup    startupStats
	compile    *compileGate
	// registry is the registered modules (nil: none).
	registry *registry.Set
	// lean is the lean child children run (nil: Config.Binary as given,
	// or this executable; leanNote says which, or why).
	lean     *leanChild
	leanNote string
	// abandoned counts children whose start failed but which go-plugin
	// still holds (ipc.ProcessConfig.Abandoned); close waits for them.
	abandoned sync.WaitGroup
}

// newProcessSpawner chooses the children's namespaces and sets up the
// cgroup layer for children of cfg (resolved), taking their uids from
// uids (nil: none of their own; userNote says which).
func newProcessSpawner(cfg Config, wire ipc.WireCaps, uids *uidRange, userNote string) (*processSpawner, error) {
	sp := &processSpawner{cfg: cfg, log: cfg.Logger, wire: wire, uids: uids, userNote: userNote, compile: newCompileGate()}
	sp.startNamespaces()
	if err := sp.startCgroups(); err != nil {
		return nil, err
	}
	return sp, nil
}

// close waits for the children whose start was abandoned, then removes
// the cgroup layer. The pool, which holds every other child, is closed
// first.
func (sp *processSpawner) close() error {
	sp.abandoned.Wait()
	sp.lean.close()
	if st := sp.compile.state.Load(); st != nil {
		st.sealed.close()
	}
	return sp.closeCgroups()
}

// ChildProcessName is every child's argv[0], so that children are easy
// to spot in ps (and for warden doctor to find one).
const ChildProcessName = "warden-child"

// spawn starts one child prepared for memory bytes, in these steps:
// wait for the compilation cache, take a uid, make the cgroup, build the
// command, start it and complete the handshake, then ping it and open
// its execution's stream.
func (sp *processSpawner) spawn(ctx context.Context, prof profile) (_ *process, err error) {
	memory := prof.memory
	cache, err := sp.compile.wait(ctx, sp.fillCache)
	if err != nil {
		return nil, err
	}
	// One budget for this child's whole start-up (handshake, first ping,
	// opening its stream): a child that wedges at any step must not hold
	// its spawn slot, or the compile gate, for longer. Waiting for the
	// gate is not part of it; the child holding the gate has its own.
	startCtx, cancelStart := context.WithTimeoutCause(ctx, sp.cfg.StartTimeout, errStartTimeout)
	defer cancelStart()
	memCap := childMemoryCap(memory, sp.cfg.MemoryOverheadBytes) + registryHeap(sp.registry)
	t := time.Now()
	hc := sp.childHardening()
	uid, owned, err := sp.takeUID()
	if err != nil {
		return nil, err
	}
	if owned {
		// The child starts as root, mounts its own /proc and switches
		// to uid before it reads anything untrusted.
		hc.UID, hc.GID = uid, uid
		// Until a process holds it, the uid is this spawn's to give back.
		// A child whose start failed may still be dying (killed once
		// go-plugin lets go of it), but it never got a request: nothing
		// untrusted ran as uid.
		defer func() {
			if owned {
				sp.uids.release(uid)
			}
		}()
	}
	group, capBytes, err := sp.makeCgroup(memCap, &hc)
	if err != nil {
		return nil, err
	}
	if group != nil {
		t = sp.phaseDone(phaseCgroup, t)
	}
	cmd, pc, err := sp.buildCommand(startCtx, prof, memCap, cache, hc, group, uid)
	if err != nil {
		return nil, err
	}
	execAt := time.Now()
	proc, err := sp.startChild(startCtx, pc, group, cache)
	if err != nil {
		return nil, err
	}
	p := &process{proc: proc, cmd: cmd, group: group, groups: sp.groups, cgroupCap: capBytes, uids: sp.uids, uid: uid}
	owned = false // p.Discard gives it back
	t = sp.phaseDone(phaseHandshake, execAt)
	account, err := sp.pingAndOpen(startCtx, p.proc, t)
	if err != nil {
		p.Discard()
		return nil, err
	}
	sp.startup.addChild(account, execAt)
	// Nothing runs in the child between now and its execution, so this is
	// the baseline an OOM kill is measured against.
	p.oomAtReady = p.oomKills()
	return p, nil
}

// takeUID takes the child's own uid from the range; owned is false when
// children have none of their own (uid is then 0).
func (sp *processSpawner) takeUID() (uid int, owned bool, err error) {
	if sp.uids == nil {
		return 0, false, nil
	}
	if uid, err = sp.uids.acquire(); err != nil {
		return 0, false, err
	}
	return uid, true, nil
}

// buildCommand is the child's command, with its configuration, and how
// ipc.Start runs it (within startCtx's budget).
func (sp *processSpawner) buildCommand(startCtx context.Context, prof profile, memCap int64, cache *cacheState, hc ipc.Hardening, group cgroupGroup, uid int) (*exec.Cmd, ipc.ProcessConfig, error) {
	env, err := ipc.ChildConfig{
		MemoryBytes:    prof.memory,
		WarmTypeScript: prof.typescript,
		KeepWarmMS:     max(sp.cfg.KeepWarm.Milliseconds(), 0),
		CacheDir:       sp.cfg.CacheDir,
		CacheDigests:   cache.digests,
		Registry:       registryRef(sp.registry),
		Harden:         hc,
		Wire:           sp.wire,
		Sealed:         cache.sealed.childFDs(),
		SealedView:     cache.sealed.viewDir(),
	}.Env()
	if err != nil {
		return nil, ipc.ProcessConfig{}, err
	}
	cmd := exec.Command(sp.cfg.Binary, sp.cfg.ChildArgs...)
	cmd.Args[0] = ChildProcessName
	cmd.ExtraFiles = cache.sealed.extraFiles()
	// An empty environment but for the child's configuration and its Go
	// runtime settings (go-plugin adds its handshake variables;
	// SkipHostEnv keeps ours out).
	cmd.Env = append([]string{env}, childRuntimeEnv(memCap)...)
	cmd.Dir = "/"
	// Its own process group, killed as one; dies with the supervisor; no
	// network at all (a fresh network namespace has only a down
	// loopback), its own IPC, hostname, mount table, PID numbering and
	// cgroup view (namespaceFlags).
	cmd.SysProcAttr = procAttr(true, sp.nsFlags)
	pc := ipc.ProcessConfig{Cmd: cmd, Logger: sp.log.With("component", "child"),
		SocketOwner: uid, Wire: sp.wire, Abandoned: &sp.abandoned}
	if group != nil {
		if fd, ok := group.CgroupFD(); ok {
			// cgroup v2: the child starts inside its cgroup (CLONE_INTO_CGROUP).
			startInCgroup(cmd.SysProcAttr, fd)
		} else {
			// cgroup v1: placed before it can complete the handshake.
			pc.Started = group.AddProc
		}
	}
	// go-plugin's own handshake timer gets what is left of the budget, so
	// that it lets go of a child that never completes the handshake (and
	// Start kills it) when the budget runs out, not a whole budget later.
	if dl, ok := startCtx.Deadline(); ok {
		pc.StartTimeout = max(time.Until(dl), time.Millisecond)
	}
	return cmd, pc, nil
}

// startChild starts the child and completes go-plugin's handshake. When
// that fails it deletes the child's cgroup and says why.
func (sp *processSpawner) startChild(startCtx context.Context, pc ipc.ProcessConfig, group cgroupGroup, cache *cacheState) (*ipc.Process, error) {
	proc, err := ipc.Start(startCtx, pc)
	if err != nil {
		if group != nil {
			group.Delete()
		}
		if cerr := cacheDigestsMatch(sp.cfg.CacheDir, cache.digests); cerr != nil {
			// The child refuses such a cache at start-up: say why.
			err = fmt.Errorf("the compilation cache changed after the compile child ran, and the child refused it: %w (%w)", cerr, err)
		}
		return nil, sp.startFailed(startCtx, fmt.Sprintf("start child %s", sp.cfg.Binary), err)
	}
	return proc, nil
}

// pingAndOpen establishes the gRPC connection and the execution's stream
// now, not on the execution's path, and returns the child's start-up
// account (its first ping's answer). t is when the handshake ended. The
// caller discards the child when it fails.
func (sp *processSpawner) pingAndOpen(startCtx context.Context, proc *ipc.Process, t time.Time) (ipc.Startup, error) {
	account, err := proc.Client().Ping(startCtx)
	if err != nil {
		return account, sp.startFailed(startCtx, fmt.Sprintf("child %d did not answer its first ping", proc.PID()), err)
	}
	t = sp.phaseDone(phasePing, t)
	if err := proc.Client().Open(startCtx); err != nil {
		return account, sp.startFailed(startCtx, fmt.Sprintf("child %d: open its execution's stream", proc.PID()), err)
	}
	sp.phaseDone(phaseOpen, t)
	return account, nil
}

// errStartTimeout is the cause of a spawn's context when the child's
// start-up outlasts Config.StartTimeout.
var errStartTimeout = errors.New("child start-up timed out")

// startFailed is the error of a spawn whose step failed with err: it
// says so when the start-up budget ran out.
func (sp *processSpawner) startFailed(startCtx context.Context, step string, err error) error {
	if errors.Is(context.Cause(startCtx), errStartTimeout) {
		return fmt.Errorf("supervisor: %s: start-up took over %v (StartTimeout); the child was killed: %w", step, sp.cfg.StartTimeout, err)
	}
	return fmt.Errorf("supervisor: %s: %w", step, err)
}

// phaseDone records a supervisor-side spawn phase that began at start
// and returns its end.
func (sp *processSpawner) phaseDone(name string, start time.Time) time.Time {
	now := time.Now()
	sp.startup.add("supervisor", name, contract.Millis(now.Sub(start)), 0, 0)
	return now
}

// startupPhases is where child start-up goes, phase by phase (Stats).
func (sp *processSpawner) startupPhases() []PhaseStat { return sp.startup.snapshot() }

// childRuntimeEnv is the Go runtime's configuration in a child, set in
// its environment so that it holds from the first instruction:
// GOMAXPROCS=1 (RATIONALE.md, "Why does a child run with GOMAXPROCS=1
// and GOGC=off?", says why, and why a child that logs takes a second P),
// and GOGC=off with GOMEMLIMIT below the child's memory cap memCap
// (goMemLimit; memory.go says why).
func childRuntimeEnv(memCap int64) []string {
	return []string{
		"GOMAXPROCS=1",
		"GOGC=off",
		fmt.Sprintf("GOMEMLIMIT=%d", goMemLimit(memCap)),
	}
}

package supervisor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// process is one child: a started, ready process with one prepared VM.
type process struct {
	proc *ipc.Process
	cmd  *exec.Cmd
	// group is the child's cgroup (nil without the cgroup layer).
	group      cgroupGroup
	cgroupCap  int64
	oomAtReady uint64
	// uids holds the child's uid until the child is reaped (nil: the
	// child has none of its own).
	uids *uidRange
	uid  int

	once, reapOnce sync.Once
}

// Exited reports whether the process is gone.
func (p *process) Exited() bool { return p.proc.Exited() }

// Discard kills the child's whole process group, reaps it, deletes its
// cgroup and gives its uid back.
func (p *process) Discard() {
	p.once.Do(func() {
		p.reap()
		if p.group != nil {
			p.group.Delete()
		}
		// Reaped. In a PID namespace its death killed everything in it;
		// without one, a process it forked and moved out of its group
		// could remain (seccomp forbids the fork).
		if p.uids != nil {
			p.uids.release(p.uid)
		}
	})
}

// reap kills the child's process group and waits for the child to be
// reaped, after which cmd.ProcessState holds the kernel's rusage.
func (p *process) reap() {
	p.reapOnce.Do(func() {
		p.killGroup()
		p.proc.Kill()
	})
}

// killGroup SIGKILLs the child's process group (the child is its leader).
func (p *process) killGroup() {
	if pid := p.proc.PID(); pid > 0 {
		syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// reportKernelUsage puts the reaped child's CPU time and peak RSS, as
// the kernel counted them, into st.
func (p *process) reportKernelUsage(st *contract.Stats) {
	if cpu, rss, ok := p.rusage(); ok {
		st.ChildCPUMS = contract.Millis(cpu)
		st.ChildMaxRSSBytes = rss
	}
}

// rusage is what the kernel reported for the reaped child.
func (p *process) rusage() (cpu time.Duration, maxRSS int64, ok bool) {
	st := p.cmd.ProcessState
	if st == nil {
		return 0, 0, false
	}
	ru, ok := st.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, false
	}
	cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return cpu, ru.Maxrss * 1024, true
}

// ChildProcessName is every child's argv[0], so that children are easy
// to spot in ps (and for warden doctor to find one).
const ChildProcessName = "warden-child"

// spawn starts one child prepared for memory bytes, in these steps:
// wait for the compilation cache, take a uid, make the cgroup, build the
// command, start it and complete the handshake, then ping it and open
// its execution's stream.
func (s *Supervisor) spawn(ctx context.Context, memory int64) (_ *process, err error) {
	cache, err := s.compile.wait(ctx, s.fillCache)
	if err != nil {
		return nil, err
	}
	// One budget for this child's whole start-up (handshake, first ping,
	// opening its stream): a child that wedges at any step must not hold
	// its spawn slot, or the compile gate, for longer. Waiting for the
	// gate is not part of it; the child holding the gate has its own.
	startCtx, cancelStart := context.WithTimeoutCause(ctx, s.cfg.StartTimeout, errStartTimeout)
	defer cancelStart()
	memCap := childMemoryCap(memory, s.cfg.MemoryOverheadBytes)
	t := time.Now()
	hc := s.childHardening()
	uid, owned, err := s.takeUID()
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
				s.uids.release(uid)
			}
		}()
	}
	group, capBytes, err := s.makeCgroup(memCap, &hc)
	if err != nil {
		return nil, err
	}
	if group != nil {
		t = s.phaseDone(phaseCgroup, t)
	}
	cmd, pc, err := s.buildCommand(startCtx, memory, memCap, cache, hc, group, uid)
	if err != nil {
		return nil, err
	}
	execAt := time.Now()
	proc, err := s.startChild(startCtx, pc, group, cache)
	if err != nil {
		return nil, err
	}
	p := &process{proc: proc, cmd: cmd, group: group, cgroupCap: capBytes, uids: s.uids, uid: uid}
	owned = false // p.Discard gives it back
	t = s.phaseDone(phaseHandshake, execAt)
	account, err := s.pingAndOpen(startCtx, p.proc, t)
	if err != nil {
		p.Discard()
		return nil, err
	}
	s.startup.addChild(account, execAt)
	// Nothing runs in the child between now and its execution, so this is
	// the baseline an OOM kill is measured against.
	p.oomAtReady = p.oomKills()
	return p, nil
}

// childHardening is the hardening every child of s is asked for, before
// its own uid and the no-cgroup fallback's rlimits (makeCgroup). Layers
// reports from it.
func (s *Supervisor) childHardening() ipc.Hardening {
	hc := ipc.Hardening{NoNewPrivs: true, Rlimits: !s.cfg.NoRlimits, Seccomp: !s.cfg.NoSeccomp, NotDumpable: true}
	hc.PrivateProc = s.privateProc()
	return hc
}

// takeUID takes the child's own uid from the range; owned is false when
// children have none of their own (uid is then 0).
func (s *Supervisor) takeUID() (uid int, owned bool, err error) {
	if s.uids == nil {
		return 0, false, nil
	}
	if uid, err = s.uids.acquire(); err != nil {
		return 0, false, err
	}
	return uid, true, nil
}

// makeCgroup creates the child's cgroup capped at memCap, and returns it
// with its cap. Without the cgroup layer it returns no group and puts
// the fallback rlimits into hc instead.
func (s *Supervisor) makeCgroup(memCap int64, hc *ipc.Hardening) (cgroupGroup, int64, error) {
	if s.cgroups == nil {
		s.fallbackRlimits(memCap, hc)
		return nil, 0, nil
	}
	g, err := s.cgroups.Create(fmt.Sprintf("child-%d", s.spawnSeq.Add(1)), memCap, s.cfg.PidsMax)
	if err != nil {
		return nil, 0, fmt.Errorf("supervisor: child cgroup: %w", err)
	}
	return g, memCap, nil
}

// fallbackRlimits puts into hc the rlimits that stand in for the cgroup
// layer's caps of a child capped at memCap.
func (s *Supervisor) fallbackRlimits(memCap int64, hc *ipc.Hardening) {
	// No cgroup: the child caps its own data segment instead.
	// RLIMIT_DATA counts every private writable mapping, and the Go
	// runtime maps its heap in 64 MiB arenas, so a child needs far
	// more than its heap to start (BENCHMARKS.md, "Behind the
	// comments") and the fallback is coarser than a cgroup cap.
	hc.RlimitDataBytes = memCap + rlimitDataSlack
	// Nothing in the kernel counts the child's CPU or tasks either:
	// RLIMIT_CPU kills a child that outlives the supervisor's SIGKILL
	// timer, and RLIMIT_NPROC stands in for the pids cap. The kernel
	// counts RLIMIT_NPROC over every task of the child's real uid, so
	// it caps one child only when each child has a uid of its own;
	// children sharing a uid share the budget.
	hc.RlimitCPUSeconds = rlimitCPUSeconds(s.cfg.Caps.Timeout, s.cfg.StartTimeout)
	hc.RlimitNProc = s.cfg.PidsMax
}

// buildCommand is the child's command, with its configuration, and how
// ipc.Start runs it (within startCtx's budget).
func (s *Supervisor) buildCommand(startCtx context.Context, memory, memCap int64, cache *cacheState, hc ipc.Hardening, group cgroupGroup, uid int) (*exec.Cmd, ipc.ProcessConfig, error) {
	env, err := ipc.ChildConfig{
		MemoryBytes:  memory,
		KeepWarmMS:   max(s.cfg.KeepWarm.Milliseconds(), 0),
		CacheDir:     s.cfg.CacheDir,
		CacheDigests: cache.digests,
		Harden:       hc,
		Wire:         s.wire,
	}.Env()
	if err != nil {
		return nil, ipc.ProcessConfig{}, err
	}
	cmd := exec.Command(s.cfg.Binary, s.cfg.ChildArgs...)
	cmd.Args[0] = ChildProcessName
	// An empty environment but for the child's configuration and its Go
	// runtime settings (go-plugin adds its handshake variables;
	// SkipHostEnv keeps ours out).
	cmd.Env = append([]string{env}, childRuntimeEnv(memCap)...)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:   true,            // its own process group, killed as one
		Pdeathsig: syscall.SIGKILL, // dies with the supervisor
	}
	// No network at all (a fresh network namespace has only a down
	// loopback), its own IPC, hostname, mount table, PID numbering and
	// cgroup view (namespaceFlags).
	cmd.SysProcAttr.Cloneflags = s.nsFlags
	pc := ipc.ProcessConfig{Cmd: cmd, Logger: s.log.With("component", "child"),
		SocketOwner: uid, Wire: s.wire, Abandoned: &s.reaping}
	if group != nil {
		if fd, ok := group.CgroupFD(); ok {
			// cgroup v2: the child starts inside its cgroup (CLONE_INTO_CGROUP).
			cmd.SysProcAttr.UseCgroupFD = true
			cmd.SysProcAttr.CgroupFD = fd
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
func (s *Supervisor) startChild(startCtx context.Context, pc ipc.ProcessConfig, group cgroupGroup, cache *cacheState) (*ipc.Process, error) {
	proc, err := ipc.Start(startCtx, pc)
	if err != nil {
		if group != nil {
			group.Delete()
		}
		if cerr := cacheDigestsMatch(s.cfg.CacheDir, cache.digests); cerr != nil {
			// The child refuses such a cache at start-up: say why.
			err = fmt.Errorf("the compilation cache changed after the compile child ran, and the child refused it: %w (%w)", cerr, err)
		}
		return nil, s.startFailed(startCtx, fmt.Sprintf("start child %s", s.cfg.Binary), err)
	}
	return proc, nil
}

// pingAndOpen establishes the gRPC connection and the execution's stream
// now, not on the execution's path, and returns the child's start-up
// account (its first ping's answer). t is when the handshake ended. The
// caller discards the child when it fails.
func (s *Supervisor) pingAndOpen(startCtx context.Context, proc *ipc.Process, t time.Time) (ipc.Startup, error) {
	account, err := proc.Client().Ping(startCtx)
	if err != nil {
		return account, s.startFailed(startCtx, fmt.Sprintf("child %d did not answer its first ping", proc.PID()), err)
	}
	t = s.phaseDone(phasePing, t)
	if err := proc.Client().Open(startCtx); err != nil {
		return account, s.startFailed(startCtx, fmt.Sprintf("child %d: open its execution's stream", proc.PID()), err)
	}
	s.phaseDone(phaseOpen, t)
	return account, nil
}

// errStartTimeout is the cause of a spawn's context when the child's
// start-up outlasts Config.StartTimeout.
var errStartTimeout = errors.New("child start-up timed out")

// startFailed is the error of a spawn whose step failed with err: it
// says so when the start-up budget ran out.
func (s *Supervisor) startFailed(startCtx context.Context, step string, err error) error {
	if errors.Is(context.Cause(startCtx), errStartTimeout) {
		return fmt.Errorf("supervisor: %s: start-up took over %v (StartTimeout); the child was killed: %w", step, s.cfg.StartTimeout, err)
	}
	return fmt.Errorf("supervisor: %s: %w", step, err)
}

// phaseDone records a supervisor-side spawn phase that began at start
// and returns its end.
func (s *Supervisor) phaseDone(name string, start time.Time) time.Time {
	now := time.Now()
	s.startup.add("supervisor", name, contract.Millis(now.Sub(start)), 0, 0)
	return now
}

// oomKills is the child's cgroup OOM-kill count (0 without a cgroup).
func (p *process) oomKills() uint64 {
	if p.group == nil {
		return 0
	}
	n, _ := p.group.OOMKills()
	return n
}

// exitSignal is the signal that ended the reaped child, if one did.
func (p *process) exitSignal() (syscall.Signal, bool) {
	st := p.cmd.ProcessState
	if st == nil {
		return 0, false
	}
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return ws.Signal(), true
}

// childRuntimeEnv is the Go runtime's configuration in a child, set in
// its environment so that it holds from the first instruction:
//
//   - GOMAXPROCS=1: a child runs one execution on one goroutine at a time
//     (gRPC's goroutines wait on the network). A second P only adds
//     threads to create and wake: one P made the warm path faster and
//     the child cheaper (BENCHMARKS.md, "Behind the comments"). Guest
//     code still yields: every host callback, including the interrupt
//     poll QuickJS makes every ~10,000 ticks, is a Go preemption point.
//   - GOGC=off with GOMEMLIMIT below the child's memory cap: a child
//     lives for one execution, and collecting during start-up costs CPU
//     for garbage it would never reuse. The limit still makes
//     the collector run as the heap nears it, so a long execution's
//     garbage (thousands of host.request answers, say) stays under the
//     cap (tests/TestGoGarbageStaysUnderTheCap).
func childRuntimeEnv(memCap int64) []string {
	return []string{
		"GOMAXPROCS=1",
		"GOGC=off",
		fmt.Sprintf("GOMEMLIMIT=%d", memCap-goMemoryHeadroom), // ChildGoMemLimit
	}
}

// goMemoryHeadroom is the part of a child's memory cap left to what the
// Go runtime does not manage (wazero's 2.5 MiB of machine code, the
// binary's pages charged to the cgroup, thread stacks).
const goMemoryHeadroom = 12 << 20

// rlimitDataSlack is what RLIMIT_DATA needs above the cgroup cap.
const rlimitDataSlack = 256 << 20

// rlimitCPUSeconds is a child's CPU budget for its whole life, in whole
// seconds: its start-up (bounded by the start-up budget), the longest
// execution the caps allow, and rlimitCPUSlack for the supervisor's kill
// grace and what an idle child spends (keep-warm, gRPC). A child with
// one P spends CPU about as fast as wall time passes, so a child the
// supervisor's timer misses dies about this much after it was started.
func rlimitCPUSeconds(timeoutCap, startTimeout time.Duration) int64 {
	return int64(math.Ceil((timeoutCap + startTimeout).Seconds())) + rlimitCPUSlack
}

// rlimitCPUSlack is the seconds RLIMIT_CPU allows beyond start-up and
// the longest execution: the kill grace, and keep-warm's CPU over an
// idle child's maximum age at their defaults (about 1 s in 5 minutes).
const rlimitCPUSlack = 3

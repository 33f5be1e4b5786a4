package supervisor

import (
	"os/exec"
	"sync"
	"time"

	"github.com/wardenhq/warden/contract"
	"github.com/wardenhq/warden/ipc"
)

// process is one child: a started, ready process with one prepared VM.
// The spawner makes it (processSpawner.spawn), the pool holds it (it is
// a pool.Child), and the request path runs one execution on it through
// its methods.
type process struct {
	proc *ipc.Process
	cmd  *exec.Cmd
	// group is the child's cgroup (nil without the cgroup layer).
	group      cgroupGroup
	groups     *groupCache // where group goes when the child is reaped
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

// Discard kills the child's whole process group, reaps it, hands its
// cgroup back for reuse (or deletes it) and gives its uid back.
func (p *process) Discard() {
	p.once.Do(func() {
		p.reap()
		if p.group != nil {
			p.groups.recycle(p.cgroupCap, p.group)
		}
		// Reaped. In a PID namespace its death killed everything in it;
		// without one, a process it forked and moved out of its group
		// could remain (seccomp forbids the fork).
		if p.uids != nil {
			p.uids.release(p.uid)
		}
	})
}

// pid is the child's process id.
func (p *process) pid() int { return p.proc.PID() }

// client is the child's end of the wire.
func (p *process) client() *ipc.Client { return p.proc.Client() }

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
		killGroupOf(pid)
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
	return kernelUsage(st.SysUsage())
}

// killedBySeccomp reports whether the reaped child's seccomp filter
// killed it (SIGSYS).
func (p *process) killedBySeccomp() bool {
	st := p.cmd.ProcessState
	return st != nil && killedBySeccomp(st.Sys())
}

// memoryCap is the child's cgroup memory cap (0 without a cgroup).
func (p *process) memoryCap() int64 { return p.cgroupCap }

// cgroupPeakBytes is the peak memory use of the child's cgroup; ok is
// false without a cgroup or when the kernel does not say.
func (p *process) cgroupPeakBytes() (peak int64, ok bool) {
	if p.group == nil {
		return 0, false
	}
	n, err := p.group.PeakBytes()
	if err != nil {
		return 0, false
	}
	return int64(n), true
}

// oomKills is the child's cgroup OOM-kill count (0 without a cgroup).
func (p *process) oomKills() uint64 {
	if p.group == nil {
		return 0
	}
	n, _ := p.group.OOMKills()
	return n
}

// oomKilled reports whether the child's cgroup OOM-killed something
// since the child was ready (nothing runs in it between then and its
// execution, so that count is the baseline).
func (p *process) oomKilled() bool { return p.oomKills() > p.oomAtReady }

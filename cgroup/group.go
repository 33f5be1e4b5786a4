//go:build linux

package cgroup

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Group is the cgroup of one child. It is safe for concurrent use.
type Group struct {
	m    *Manager
	name string
	// dirs are the group's directories, memory (or unified) first.
	dirs []ctlDir
	// memDir and pidsDir are the group's directories in the memory and
	// pids controllers, "" where that controller is not available.
	memDir  string
	pidsDir string
	// version does what cgroup v1 and v2 do differently (v1.go, v2.go),
	// chosen once, when Create makes the group.
	version groupVersion
	// lim are the caps Create applied; Reset reads them back.
	lim Limits

	mu      sync.Mutex
	fd      int // the group's directory on v2 (CgroupFD); -1 on v1
	deleted bool
	// peak is the open peak-memory file (v1 memory.max_usage_in_bytes,
	// v2 memory.peak or memory.current), read with pread: opening it by
	// path on every read was a measurable part of a warm execution's
	// path (BENCHMARKS.md, "Behind the comments").
	peak *os.File
}

// groupVersion is what a Group does differently on cgroup v1 (v1Group)
// and v2 (v2Group).
type groupVersion interface {
	// addProc places pid in the group, in every controller.
	addProc(pid int) error
	// openPeak opens the file of the group's peak memory use, in memDir.
	openPeak(memDir string) (*os.File, error)
	// oomKills counts the OOM kills of the group whose memory directory
	// is memDir; peak reads its peak memory use, for kernels that keep
	// no count.
	oomKills(memDir string, peak func() (uint64, error)) (uint64, error)
	// kill sends SIGKILL to every process in the group's dirs, whose
	// pids directory is pidsDir ("" without one).
	kill(dirs []string, pidsDir string) error
	// reset makes the empty group whose directories are memDir and
	// pidsDir as Create left it, capped at lim (reset.go); it returns
	// the peak file to read from then on.
	reset(memDir, pidsDir string, lim Limits, peak *os.File) (*os.File, error)
}

// AddProc places the process pid in the group, in every controller. On
// error the process may be in some controllers only: kill it.
func (g *Group) AddProc(pid int) error {
	if pid <= 0 {
		return fmt.Errorf("cgroup: add pid %d to %q: invalid pid", pid, g.name)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return ErrDeleted
	}
	if err := g.version.addProc(pid); err != nil {
		return fmt.Errorf("cgroup: add pid %d to %q: %w", pid, g.name, err)
	}
	return nil
}

// CgroupFD returns a descriptor of the group's directory for
// syscall.SysProcAttr.UseCgroupFD/CgroupFD (CLONE_INTO_CGROUP). It is owned
// by the Group and valid until Delete; do not close it. ok is false on v1 and
// after Delete.
func (g *Group) CgroupFD() (fd int, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted || g.fd < 0 {
		return -1, false
	}
	return g.fd, true
}

// OOMKills returns how many processes the OOM killer killed in the group.
// Compare the count before and after a run to detect an OOM kill.
func (g *Group) OOMKills() (uint64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return 0, ErrDeleted
	}
	return g.oomKills()
}

func (g *Group) oomKills() (uint64, error) {
	if g.memDir == "" {
		return 0, nil
	}
	n, err := g.version.oomKills(g.memDir, g.peakBytes)
	if err != nil {
		return 0, fmt.Errorf("cgroup: read OOM kills of %q: %w", g.name, err)
	}
	return n, nil
}

// Usage returns peak memory, OOM kills and current task count.
func (g *Group) Usage() (Usage, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return Usage{}, ErrDeleted
	}
	var (
		u   Usage
		err error
	)
	if g.memDir != "" {
		if u.PeakBytes, err = g.peakBytes(); err != nil {
			return Usage{}, err
		}
		if u.OOMKills, err = g.oomKills(); err != nil {
			return Usage{}, err
		}
	}
	if g.pidsDir != "" {
		if u.PidsCurrent, err = readUint(filepath.Join(g.pidsDir, "pids.current")); err != nil {
			return Usage{}, fmt.Errorf("cgroup: read task count of %q: %w", g.name, err)
		}
	}
	return u, nil
}

// PeakBytes is the group's peak memory use: Usage's PeakBytes alone, one
// file read (the supervisor reads it on every execution's path). 0
// without a memory controller.
func (g *Group) PeakBytes() (uint64, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return 0, ErrDeleted
	}
	if g.memDir == "" {
		return 0, nil
	}
	return g.peakBytes()
}

func (g *Group) peakBytes() (uint64, error) {
	if g.peak == nil {
		f, err := g.version.openPeak(g.memDir)
		if err != nil {
			return 0, fmt.Errorf("cgroup: read peak memory of %q: %w", g.name, err)
		}
		g.peak = f
	}
	var buf [32]byte
	n, err := g.peak.ReadAt(buf[:], 0)
	if n == 0 {
		return 0, fmt.Errorf("cgroup: read peak memory of %q: %w", g.name, err)
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(buf[:n])), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cgroup: read peak memory of %q: %w", g.name, err)
	}
	return v, nil
}

// Kill sends SIGKILL to every process in the group. It does not wait for
// them to exit. On v2 it writes cgroup.kill (kernel 5.14+); otherwise it
// first sets pids.max to 0 so nothing can fork, then signals each pid listed
// in cgroup.procs until no new pid shows up.
func (g *Group) Kill() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return ErrDeleted
	}
	return g.kill()
}

func (g *Group) kill() error {
	if err := g.version.kill(g.dirList(), g.pidsDir); err != nil {
		return fmt.Errorf("cgroup: kill %q: %w", g.name, err)
	}
	return nil
}

func (g *Group) dirList() []string {
	out := make([]string, len(g.dirs))
	for i, d := range g.dirs {
		out[i] = d.dir
	}
	return out
}

// Delete kills what is left in the group, waits briefly for it to exit and
// removes the group in every controller. It is idempotent. If processes
// outlive the wait, it returns ErrBusy and can be called again.
func (g *Group) Delete() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deleted {
		return nil
	}
	// Usually the group is empty already (the supervisor killed and
	// reaped its child): then no one is left to fork or to wait for, and
	// one read of the task lists is all Delete needs, on v1 and v2.
	dirs := g.dirList()
	if pids, err := readProcs(dirs); err != nil || len(pids) > 0 {
		if err := g.kill(); err != nil {
			g.m.log.Warn("kill before delete failed", "group", g.name, "err", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
		defer cancel()
		if err := waitEmpty(ctx, dirs); err != nil {
			return fmt.Errorf("%w: delete %q: %w", ErrBusy, g.name, err)
		}
	}
	// rmdir directly: the library's Delete walks and stats every control
	// file to look for processes, which waitEmpty has just ruled out, and
	// that doubled the cost of Delete.
	for _, d := range g.dirs {
		if err := rmdirRetry(d.dir); err != nil {
			return fmt.Errorf("cgroup: delete %q: %w", g.name, err)
		}
	}
	g.deleted = true
	if g.peak != nil {
		g.peak.Close()
		g.peak = nil
	}
	if g.fd >= 0 {
		unix.Close(g.fd)
		g.fd = -1
	}
	g.m.forget(g.name)
	return nil
}

// rmdirs removes a group that was never handed out (it has no processes).
func (g *Group) rmdirs() {
	for _, d := range g.dirs {
		if err := rmdirRetry(d.dir); err != nil {
			g.m.log.Warn("cannot remove failed group", "dir", d.dir, "err", err)
		}
	}
}

package cgroup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/containerd/cgroups/v3/cgroup1"
	"github.com/containerd/cgroups/v3/cgroup2"
	"golang.org/x/sys/unix"
)

// Modes reported by [Manager.Mode] and [Report].
const (
	ModeV1   = "v1"
	ModeV2   = "v2"
	ModeNone = "none"
)

var (
	// ErrUnavailable means the machine has no usable cgroup memory controller.
	ErrUnavailable = errors.New("cgroup: unavailable")
	// ErrInvalidConfig means Config failed validation in New.
	ErrInvalidConfig = errors.New("cgroup: invalid config")
	// ErrInvalidName means a group name is not 1-64 characters of [A-Za-z0-9_-].
	ErrInvalidName = errors.New("cgroup: invalid group name")
	// ErrInvalidLimits means Limits failed validation before anything was created.
	ErrInvalidLimits = errors.New("cgroup: invalid limits")
	// ErrLimit means a cap could not be applied; the group was removed.
	ErrLimit = errors.New("cgroup: cannot apply limit")
	// ErrExists means a group of that name already exists.
	ErrExists = errors.New("cgroup: group already exists")
	// ErrClosed means the Manager was closed.
	ErrClosed = errors.New("cgroup: manager closed")
	// ErrDeleted means the Group was deleted.
	ErrDeleted = errors.New("cgroup: group deleted")
	// ErrBusy means processes were still in a group after it was killed.
	ErrBusy = errors.New("cgroup: processes still running")
)

const (
	// minMemoryBytes is the smallest memory cap Create accepts. The kernel
	// takes anything down to 0 on an empty group (rounding to pages), which
	// would make the child fail on its first page; refuse it here instead.
	minMemoryBytes = 1 << 20
	// drainTimeout bounds how long Delete and stale cleanup wait for killed
	// processes to leave a group.
	drainTimeout = 2 * time.Second
)

// Config configures a Manager. The zero value is valid.
type Config struct {
	// Parent, when set, is a cgroup path relative to the hierarchy root (as
	// in /proc/self/cgroup, e.g. "/process_api/x/warden") under which this
	// Manager creates its own "warden-<pid>" group, and the groups inside it.
	// Missing directories are created (and removed again by Close if empty).
	// On v1 the same path is used in every controller. On v2 Parent must
	// hold no processes.
	// Empty (the default) means the supervisor's own cgroup, per controller.
	Parent string
	// Logger receives the package's logs. Nil (the default) discards them.
	Logger *slog.Logger
}

// Limits are the caps of one group. A zero field means "no cap of that kind".
type Limits struct {
	// MemoryBytes caps the group's memory (already including the runtime's
	// overhead). Swap is capped to zero where the controller allows it.
	// Non-zero values below 1 MiB are refused.
	MemoryBytes int64
	// PidsMax caps the number of tasks (threads, not processes) in the group.
	PidsMax int64
}

// Usage is what a group used, as the kernel accounts it.
type Usage struct {
	// PeakBytes is the highest memory use (v1 memory.max_usage_in_bytes,
	// v2 memory.peak, or memory.current on kernels before 5.19).
	PeakBytes uint64
	// OOMKills is the number of processes the OOM killer killed in the group.
	OOMKills uint64
	// PidsCurrent is the number of tasks in the group now.
	PidsCurrent uint64
}

// Manager creates and removes per-child groups below one parent group. It is
// safe for concurrent use.
type Manager struct {
	log  *slog.Logger
	mode string
	// reason says why mode is none.
	reason string
	// swap reports whether swap can be capped.
	swap bool

	// parents are this Manager's warden-<pid> directories, memory first.
	parents []ctlDir
	// ancestors are directories New created above parents for Config.Parent,
	// innermost first.
	ancestors []string
	// livePIDNS is the PID namespaces that have a process, read once by
	// New's stale-group scans when a group of another namespace is there.
	livePIDNS func() map[uint64]bool
	v1        cgroup1.Cgroup
	v2        *cgroup2.Manager
	// v2ctls are the controllers enabled for children on v2.
	v2ctls []string

	mu sync.Mutex
	// groups holds nil for a name whose Create is in progress.
	groups map[string]*Group
	closed bool
	// creating counts Creates in progress, for Close to wait on.
	creating sync.WaitGroup
}

// ctlDir is the directory of a group in one controller's hierarchy (on v2,
// ctl is "unified").
type ctlDir struct {
	ctl string
	dir string
}

// New detects the cgroup mode, removes groups left by dead supervisors and
// creates this Manager's parent group. On a machine without a usable memory
// controller it returns a Manager whose Mode is "none" and whose Create fails
// with ErrUnavailable. ctx bounds the wait for stale groups' processes to die.
func New(ctx context.Context, cfg Config) (*Manager, error) {
	return newManager(ctx, cfg, probeHost())
}

func newManager(ctx context.Context, cfg Config, h host) (*Manager, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Parent != "" {
		if err := cgroup2.VerifyGroupPath(cfg.Parent); err != nil {
			return nil, fmt.Errorf("%w: Parent %q must be a clean absolute cgroup path without the mount point: %w", ErrInvalidConfig, cfg.Parent, err)
		}
	}
	m := &Manager{
		log:    cfg.Logger.With("component", "cgroup"),
		mode:   h.mode,
		reason: h.reason,
		groups: make(map[string]*Group),
	}
	var err error
	switch h.mode {
	case ModeV1:
		err = m.initV1(ctx, cfg, h)
	case ModeV2:
		err = m.initV2(ctx, cfg, h)
	default:
		m.log.Warn("cgroups unavailable: children will run without cgroup caps unless the caller refuses", "reason", h.reason)
		return m, nil
	}
	if err != nil {
		m.removeAncestors()
		return nil, err
	}
	attrs := []any{"mode", m.mode, "swap_capped", m.swap}
	for _, p := range m.parents {
		attrs = append(attrs, p.ctl, p.dir)
	}
	m.log.Info("cgroup manager ready", attrs...)
	return m, nil
}

// Mode reports "v1", "v2" or "none".
func (m *Manager) Mode() string { return m.mode }

// Create makes a group called name below the Manager's parent and applies
// lim. If any cap cannot be applied, Create removes what it made and returns
// an error wrapping ErrLimit and the kernel's error.
func (m *Manager) Create(name string, lim Limits) (*Group, error) {
	if err := validName(name); err != nil {
		return nil, err
	}
	if lim.MemoryBytes < 0 || lim.PidsMax < 0 || (lim.MemoryBytes > 0 && lim.MemoryBytes < minMemoryBytes) {
		return nil, fmt.Errorf("%w: %+v (MemoryBytes must be 0 or >= %d, PidsMax >= 0)", ErrInvalidLimits, lim, minMemoryBytes)
	}
	if m.mode == ModeNone {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, m.reason)
	}
	// Reserve the name, then work on the kernel without holding the lock,
	// so that a pool can create groups in parallel.
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	if _, ok := m.groups[name]; ok {
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: %q", ErrExists, name)
	}
	m.groups[name] = nil
	m.creating.Add(1)
	m.mu.Unlock()
	defer m.creating.Done()

	var (
		g   *Group
		err error
	)
	if m.mode == ModeV1 {
		g, err = m.createV1(name, lim)
	} else {
		g, err = m.createV2(name, lim)
	}
	m.mu.Lock()
	closed := m.closed
	if err == nil && !closed {
		m.groups[name] = g
	} else {
		delete(m.groups, name)
	}
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err == nil && g.memDir != "" {
		// Opened now, off the execution's path; peakBytes opens it if
		// this fails.
		g.peak, _ = g.openPeak()
	}
	if closed {
		// Close is waiting for this Create; leave nothing for it to miss.
		if derr := g.Delete(); derr != nil {
			m.log.Warn("group created during Close not removed", "group", name, "err", derr)
		}
		return nil, ErrClosed
	}
	return g, nil
}

// Close deletes every group the Manager created, then its parent group and
// any directories New created above it. It is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.mu.Unlock()
	m.creating.Wait()
	m.mu.Lock()
	groups := make([]*Group, 0, len(m.groups))
	for _, g := range m.groups {
		if g != nil {
			groups = append(groups, g)
		}
	}
	m.mu.Unlock()

	var errs []error
	for _, g := range groups {
		if err := g.Delete(); err != nil {
			errs = append(errs, err)
		}
	}
	if m.mode == ModeNone {
		return nil
	}
	for _, p := range m.parents {
		if err := rmdirRetry(p.dir); err != nil {
			errs = append(errs, fmt.Errorf("cgroup: remove parent %s: %w", p.dir, err))
		}
	}
	m.removeAncestors()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	m.log.Debug("cgroup manager closed")
	return nil
}

// removeAncestors removes the directories New created for Config.Parent, if
// they are empty; another supervisor may still be using them.
func (m *Manager) removeAncestors() {
	for _, d := range m.ancestors {
		if err := unix.Rmdir(d); err != nil && !errors.Is(err, unix.ENOENT) {
			m.log.Debug("parent directory kept", "dir", d, "err", err)
		}
	}
	m.ancestors = nil
}

func (m *Manager) forget(name string) {
	m.mu.Lock()
	delete(m.groups, name)
	m.mu.Unlock()
}

// Group is the cgroup of one child. It is safe for concurrent use.
type Group struct {
	m    *Manager
	name string
	// dirs are the group's directories, memory (or unified) first.
	dirs    []ctlDir
	memDir  string
	pidsDir string
	v1      cgroup1.Cgroup
	v2      *cgroup2.Manager

	mu      sync.Mutex
	fd      int
	deleted bool
	// peak is the open peak-memory file (v1 memory.max_usage_in_bytes,
	// v2 memory.peak or memory.current), read with pread: opening it by
	// path on every read was a measurable part of a warm execution's
	// path (BENCHMARKS.md, "Behind the comments").
	peak *os.File
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
	var err error
	if g.v1 != nil {
		err = g.v1.AddProc(uint64(pid))
	} else {
		err = g.v2.AddProc(uint64(pid))
	}
	if err != nil {
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
	if g.v2 != nil {
		n, _, err := readKey(filepath.Join(g.memDir, "memory.events"), "oom_kill")
		if err != nil {
			return 0, fmt.Errorf("cgroup: read OOM kills of %q: %w", g.name, err)
		}
		return n, nil
	}
	n, found, err := readKey(filepath.Join(g.memDir, "memory.oom_control"), "oom_kill")
	if err != nil {
		return 0, fmt.Errorf("cgroup: read OOM kills of %q: %w", g.name, err)
	}
	if found {
		return n, nil
	}
	// Kernels before 4.13 have no oom_kill counter: report one kill if the
	// group hit its limit at its peak. It cannot tell one kill from several.
	limit, err1 := readUint(filepath.Join(g.memDir, "memory.limit_in_bytes"))
	peak, err2 := g.peakBytes()
	fails, err3 := readUint(filepath.Join(g.memDir, "memory.failcnt"))
	if err := errors.Join(err1, err2, err3); err != nil {
		return 0, fmt.Errorf("cgroup: read OOM kills of %q: %w", g.name, err)
	}
	if fails > 0 && peak+uint64(os.Getpagesize()) >= limit {
		return 1, nil
	}
	return 0, nil
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
		f, err := g.openPeak()
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

// openPeak opens the file peakBytes reads.
func (g *Group) openPeak() (*os.File, error) {
	if g.v2 != nil {
		f, err := os.Open(filepath.Join(g.memDir, "memory.peak"))
		if !errors.Is(err, os.ErrNotExist) {
			return f, err
		}
		return os.Open(filepath.Join(g.memDir, "memory.current"))
	}
	return os.Open(filepath.Join(g.memDir, "memory.max_usage_in_bytes"))
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
	if g.v2 != nil && exists(filepath.Join(g.dirs[0].dir, "cgroup.kill")) {
		if err := g.v2.Kill(); err != nil {
			return fmt.Errorf("cgroup: kill %q: %w", g.name, err)
		}
		return nil
	}
	if err := killTree(g.dirList(), g.pidsDir); err != nil {
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

// validName accepts 1-64 characters of [A-Za-z0-9_-]: nothing that can
// escape the parent or collide with a control file.
func validName(name string) error {
	if len(name) == 0 || len(name) > 64 {
		return fmt.Errorf("%w: %q", ErrInvalidName, name)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		default:
			return fmt.Errorf("%w: %q", ErrInvalidName, name)
		}
	}
	return nil
}

// mkdirExclusive creates every dir, or none: on failure it removes the ones
// it made. EEXIST is reported as ErrExists.
func mkdirExclusive(dirs []string) error {
	for i, d := range dirs {
		if err := unix.Mkdir(d, 0o755); err != nil {
			for _, made := range dirs[:i] {
				unix.Rmdir(made)
			}
			if errors.Is(err, unix.EEXIST) {
				return fmt.Errorf("%w: %s", ErrExists, d)
			}
			return &os.PathError{Op: "mkdir", Path: d, Err: err}
		}
	}
	return nil
}

// rmdirRetry removes an empty cgroup directory, retrying while the kernel
// still reports it busy. A missing directory is success.
func rmdirRetry(dir string) error {
	delay := time.Millisecond
	var err error
	for range 8 {
		err = unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) && !errors.Is(err, unix.EAGAIN) {
			break
		}
		time.Sleep(delay)
		delay *= 2
	}
	return &os.PathError{Op: "rmdir", Path: dir, Err: err}
}

// checkValue reads a control file back and compares it with what was
// written, so that a kernel (or a fake filesystem) that quietly stores
// something else fails Create.
func checkValue(dir, file, want string) error {
	got, err := readTrim(filepath.Join(dir, file))
	if err != nil {
		return fmt.Errorf("read back %s: %w", file, err)
	}
	if got != want {
		return fmt.Errorf("%s is %q after writing %q", file, got, want)
	}
	return nil
}

func pageRound(n int64) string {
	p := int64(os.Getpagesize())
	return strconv.FormatInt(n/p*p, 10)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
